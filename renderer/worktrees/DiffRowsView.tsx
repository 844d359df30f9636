import { DiffModeEnum, DiffViewWithMultiSelect, type MultiSelectResult } from '@git-diff-view/react';
import '@git-diff-view/react/styles/diff-view-pure.css';
import { useVirtualizer } from '@tanstack/react-virtual';
import { memo, useEffect, useImperativeHandle, useMemo, useRef, useState, type Ref } from 'react';
import { useShownTheme } from '../components/shownTheme';
import type { WorktreeDiffFile } from '../../shared/entities/worktrees';
import type { DiffSide } from '../../shared/turns';
import type { DiffRow } from './diffChunks';
import { loadEveryGrammar, useGrammarGeneration } from './syntaxGrammars';

export type DiffLayout = 'unified' | 'split';

/** Lines a person dragged over in the diff's line numbers, to comment on. */
export interface LineSelection {
  fileIndex: number;
  side: DiffSide;
  startLine: number;
  endLine: number;
}

export interface DiffRowsHandle {
  showFile(fileIndex: number): void;
  /** Scrolls to the next (1) or previous (-1) hunk from where the view is; returns its file. */
  showHunk(direction: 1 | -1): number | null;
  /** The hunk at the top of the view (the first of the file whose heading is there), or null. */
  hunkAtTop(): { fileIndex: number; hunkIndex: number } | null;
}

/** Reverting from the diff: a button on each hunk and file, disabled (saying why) while refused. */
export interface DiffRevertActions {
  refusal: string | null;
  pending: boolean;
  hunk(fileIndex: number, hunkIndex: number): void;
  file(fileIndex: number): void;
}

interface DiffRowsViewProps {
  files: readonly WorktreeDiffFile[];
  rows: readonly DiffRow[];
  layout: DiffLayout;
  /** The file at the top of the view changed (by scrolling). */
  onTopFile(fileIndex: number): void;
  /** Lines were selected (dragged over in the line numbers); without it, lines cannot be selected. */
  onSelectLines?(selection: LineSelection): void;
  /** Without it, the diff offers no revert. */
  revert?: DiffRevertActions;
  /** "Open in editor" on a file's heading (not offered for a deleted file); without it, not offered. */
  onOpenFile?(fileIndex: number): void;
  ref?: Ref<DiffRowsHandle>;
}

const LINE_HEIGHT = 20;
/**
 * Fewer pixels than a hunk's lines can take in either layout (split pairs lines up, so it may show
 * half as many rows). The viewer draws its lines a moment after it mounts: without this floor an
 * empty hunk would measure 0 px, and the list would mount every hunk of the diff at once.
 */
const MIN_PX_PER_LINE = LINE_HEIGHT / 2 - 1;

interface HunkViewProps {
  file: WorktreeDiffFile;
  fileIndex: number;
  patch: string;
  layout: DiffLayout;
  onSelectLines: ((selection: LineSelection) => void) | undefined;
  highlight: boolean;
}

/**
 * One hunk (or a piece of a long one) through the diff viewer: syntax colouring, split or unified;
 * dragging over its line numbers selects lines.
 */
const HunkView = memo(function HunkView({ file, fileIndex, patch, layout, onSelectLines, highlight }: HunkViewProps) {
  const data = useMemo(() => ({ oldFile: { fileName: file.oldPath ?? file.path }, newFile: { fileName: file.path }, hunks: [patch] }), [file.oldPath, file.path, patch]);
  const onSelect = useMemo(
    () => onSelectLines && (({ range }: MultiSelectResult) => onSelectLines({ fileIndex, side: range.side, startLine: range.startLineNumber, endLine: range.endLineNumber })),
    [onSelectLines, fileIndex],
  );
  const grammars = useGrammarGeneration();
  const theme = useShownTheme();
  return (
    <DiffViewWithMultiSelect
      key={grammars}
      enableMultiSelect={onSelect !== undefined}
      {...(onSelect ? { onMultiSelectComplete: onSelect } : {})}
      data={data}
      diffViewMode={layout === 'split' ? DiffModeEnum.Split : DiffModeEnum.Unified}
      diffViewTheme={theme}
      diffViewHighlight={highlight}
      diffViewFontSize={12}
    />
  );
});

function RevertButton({ revert, label, what, onRevert }: { revert: DiffRevertActions; label: string; what: string; onRevert(): void }) {
  return (
    <button
      type="button"
      className="button button--ghost button--row changes-diff__revert"
      disabled={revert.refusal !== null || revert.pending}
      title={revert.refusal ?? `Put ${what} back as the diff's base has it, in the worktree's files (a checkpoint is kept first, so it can be undone)`}
      onClick={onRevert}
    >
      {label}
    </button>
  );
}

/**
 * False until the view's first lines are painted: colouring them waits for highlight.js to compile
 * the language's grammar (a tenth of a second the first time in a page) and to tokenize them, which
 * the first paint need not wait for. Every grammar is taken in then too, which holds the page for a moment.
 */
function useHighlightOncePainted(hasRows: boolean): boolean {
  const [highlight, setHighlight] = useState(false);
  useEffect(() => {
    if (!hasRows) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const frame = requestAnimationFrame(() => {
      timer = setTimeout(() => {
        setHighlight(true);
        void loadEveryGrammar().catch(() => {});
      });
    });
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(timer);
    };
  }, [hasRows]);
  return highlight;
}

/**
 * The whole diff as one scrolling list, virtualised: only the file headings and hunks near the
 * view are rendered, so a diff of many thousand lines opens as fast as a short one.
 */
export function DiffRowsView({ files, rows, layout, onTopFile, onSelectLines, revert, onOpenFile, ref }: DiffRowsViewProps) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: (index) => {
      const row = rows[index];
      return row?.kind === 'hunk' ? (row.lines + (row.continued ? 0 : 1)) * LINE_HEIGHT : 34;
    },
    getItemKey: (index) => rows[index]?.key ?? index,
    overscan: 1,
  });
  const lastTopFile = useRef(-1);
  const highlight = useHighlightOncePainted(rows.length > 0);

  const currentIndex = () => virtualizer.getVirtualItemForOffset((virtualizer.scrollOffset ?? 0) + 1)?.index ?? 0;

  useImperativeHandle(
    ref,
    () => ({
      showFile: (fileIndex) => {
        const index = rows.findIndex((row) => row.kind === 'file' && row.fileIndex === fileIndex);
        if (index >= 0) virtualizer.scrollToIndex(index, { align: 'start' });
      },
      showHunk: (direction) => {
        const from = currentIndex();
        const isHunkStart = (row: DiffRow | undefined) => row?.kind === 'hunk' && !row.continued;
        let index = from + direction;
        while (index >= 0 && index < rows.length && !isHunkStart(rows[index])) index += direction;
        const row = rows[index];
        if (!row) return null;
        virtualizer.scrollToIndex(index, { align: 'start' });
        return row.fileIndex;
      },
      hunkAtTop: () => {
        const index = currentIndex();
        const row = rows[index]?.kind === 'hunk' ? rows[index] : rows[index + 1];
        return row?.kind === 'hunk' && row.fileIndex === rows[index]?.fileIndex ? { fileIndex: row.fileIndex, hunkIndex: row.hunkIndex } : null;
      },
    }),
    // eslint-disable-next-line react-hooks/exhaustive-deps -- currentIndex reads the virtualizer, which is stable.
    [rows, virtualizer],
  );

  return (
    <div
      ref={scrollRef}
      role="region"
      aria-label="Diff"
      tabIndex={0}
      className="changes-diff"
      onScroll={() => {
        const top = rows[currentIndex()]?.fileIndex ?? 0;
        if (top !== lastTopFile.current) {
          lastTopFile.current = top;
          onTopFile(top);
        }
      }}
    >
      <div className="changes-diff__canvas" style={{ height: virtualizer.getTotalSize() }}>
        {virtualizer.getVirtualItems().map((item) => {
          const row = rows[item.index];
          const file = row && files[row.fileIndex];
          if (!row || !file) return null;
          return (
            <div key={item.key} ref={virtualizer.measureElement} data-index={item.index} className="changes-diff__row" style={{ transform: `translateY(${item.start}px)` }}>
              {row.kind === 'file' ? (
                <h3 className="changes-diff__file">
                  <span className="changes-diff__file-path">{file.oldPath ? `${file.oldPath} → ${file.path}` : file.path}</span>
                  <span className="changes-files__added">+{file.additions}</span> <span className="changes-files__removed">−{file.deletions}</span>
                  {row.note && <span className="changes-diff__note">{row.note}</span>}
                  {onOpenFile && file.status !== 'deleted' && (
                    <button type="button" className="button button--ghost button--row changes-diff__open" aria-label={`Open in editor: ${file.path}`} title="Open in editor (e)" onClick={() => onOpenFile(row.fileIndex)}>
                      Open in editor
                    </button>
                  )}
                  {revert && (
                    <RevertButton revert={revert} label="Revert file" what={file.path} onRevert={() => revert.file(row.fileIndex)} />
                  )}
                </h3>
              ) : (
                <div
                  className={row.continued ? 'changes-diff__hunk changes-diff__hunk--continued' : 'changes-diff__hunk'}
                  style={{ minHeight: row.lines * MIN_PX_PER_LINE }}
                >
                  {revert && !row.continued && (
                    <RevertButton revert={revert} label="Revert hunk" what={`this hunk of ${file.path}`} onRevert={() => revert.hunk(row.fileIndex, row.hunkIndex)} />
                  )}
                  <HunkView file={file} fileIndex={row.fileIndex} patch={row.patch} layout={layout} onSelectLines={onSelectLines} highlight={highlight} />
                </div>
              )}
            </div>
          );
        })}
      </div>
    </div>
  );
}
