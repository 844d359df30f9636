import { useMemo, useRef, useState } from 'react';
import type { Agent, Worktree } from '../../shared/entities';
import { countOf } from '../../shared/plural';
import { FormError } from '../components/FormError';
import { ModalDialog } from '../components/ModalDialog';
import { usePendingAction } from '../components/usePendingAction';
import { useStoredFlag } from '../components/useStoredFlag';
import { diffCommandFor, type DiffCommand } from '../keyboard/diffShortcuts';
import { isTypingTarget } from '../keyboard/shortcuts';
import { useWindowKeyDown } from '../keyboard/useWindowKeyDown';
import { useBridge } from '../store/StoreContext';
import { diffRows } from './diffChunks';
import { DiffFileList } from './DiffFileList';
import { DiffRowsView, type DiffRowsHandle } from './DiffRowsView';
import { MergeDialog } from './MergeDialog';
import { useWorktreeDiff } from './useWorktreeDiff';

interface ChangesDialogProps {
  agent: Agent;
  worktree: Worktree;
  onClose(): void;
}

/**
 * What an agent changed on its branch (commits, staged, unstaged and untracked files), as a file
 * list and a diff that follows the worktree as it changes; merge into the parent and push from here.
 */
export function ChangesDialog({ agent, worktree, onClose }: ChangesDialogProps) {
  const { diff, loading, error } = useWorktreeDiff(worktree);
  const bridge = useBridge();
  const [split, setSplit] = useStoredFlag('drover.diffSplit', false);
  const [selectedPath, setSelectedPath] = useState<string | null>(null);
  const [merging, setMerging] = useState(false);
  const [pushed, setPushed] = useState<string | null>(null);
  const push = usePendingAction();
  const rowsRef = useRef<DiffRowsHandle>(null);
  const contentRef = useRef<HTMLDivElement>(null);

  const files = useMemo(() => diff?.files ?? [], [diff]);
  const rows = useMemo(() => diffRows(files), [files]);
  // Nothing to merge: no commit of the branch and no file it changed.
  const canMerge = diff !== null && (diff.commits.length > 0 || diff.files.length > 0);
  const selected = Math.max(0, files.findIndex((file) => file.path === selectedPath));

  const select = (index: number) => {
    const file = files[index];
    if (!file) return;
    setSelectedPath(file.path);
    rowsRef.current?.showFile(index);
  };

  const run = (command: DiffCommand) => {
    if (command === 'nextFile') select(Math.min(selected + 1, files.length - 1));
    else if (command === 'previousFile') select(Math.max(selected - 1, 0));
    else if (command === 'toggleLayout') setSplit(!split);
    else if (command === 'merge') setMerging(canMerge);
    else {
      const fileIndex = rowsRef.current?.showHunk(command === 'nextHunk' ? 1 : -1);
      if (fileIndex !== null && fileIndex !== undefined) setSelectedPath(files[fileIndex]?.path ?? null);
    }
  };

  // Keys work wherever focus is in this dialog (its header too), and not in a dialog opened over it.
  useWindowKeyDown((event) => {
    const dialog = contentRef.current?.closest('dialog');
    const target = event.target instanceof Element ? event.target : null;
    if (!dialog || target?.closest('dialog') !== dialog || event.defaultPrevented || isTypingTarget(event.target)) return;
    const command = diffCommandFor(event);
    if (!command) return;
    event.preventDefault();
    run(command);
  });

  const pushBranch = () =>
    void push.run(async () => {
      const result = await bridge.call('pushWorktreeBranch', { agentId: agent.id });
      setPushed(`Pushed ${result.branch} to ${result.remote}.`);
    }, 'Could not push: ');

  const summary = diff && `${countOf(diff.commits.length, 'commit')}, ${countOf(diff.files.length, 'file')}, +${diff.additions} −${diff.deletions}`;
  return (
    <ModalDialog
      title={`Changes of ${agent.name}`}
      className="changes-dialog"
      onClose={onClose}
      headerExtras={
        <span className="changes-dialog__meta">
          <code>{worktree.branch}</code> → <code>{worktree.parentBranch}</code>
          {summary && <span>{summary}</span>}
          {loading && diff && <span role="status">Updating…</span>}
        </span>
      }
    >
      <div ref={contentRef} className="changes-dialog__content">
        <div className="changes-dialog__toolbar">
          <span role="group" aria-label="Diff layout" className="changes-dialog__layout">
            <button type="button" className="button button--ghost" aria-pressed={!split} onClick={() => setSplit(false)}>
              Unified
            </button>
            <button type="button" className="button button--ghost" aria-pressed={split} onClick={() => setSplit(true)}>
              Split
            </button>
          </span>
          {diff && diff.commits.length > 0 && (
            <details className="changes-dialog__commits">
              <summary>{countOf(diff.commits.length, 'commit')}</summary>
              <ol>
                {diff.commits.map((commit) => (
                  <li key={commit.sha}>
                    <code>{commit.sha.slice(0, 8)}</code> {commit.subject} <span className="field-hint">— {commit.author}</span>
                  </li>
                ))}
              </ol>
            </details>
          )}
          <span className="changes-dialog__spacer" />
          {pushed && <span role="status">{pushed}</span>}
          <button type="button" className="button button--ghost" disabled={push.pending} onClick={pushBranch}>
            {push.pending ? 'Pushing…' : 'Push branch'}
          </button>
          <button type="button" className="button button--primary" title={canMerge ? 'm' : 'Nothing to merge yet'} disabled={!canMerge} onClick={() => setMerging(true)}>
            Merge into {worktree.parentBranch}…
          </button>
        </div>
        <FormError message={push.error} />
        <FormError message={error && `Could not read the changes: ${error}`} />
        {diff === null ? (
          !error && <p role="status">Reading the changes…</p>
        ) : files.length === 0 ? (
          <p className="changes-dialog__empty">
            No changes yet: {worktree.branch} holds nothing that {worktree.parentBranch} lacks, committed or not.
          </p>
        ) : (
          <div className="changes-dialog__body">
            <DiffFileList files={files} selected={selected} onSelect={select} />
            <DiffRowsView ref={rowsRef} files={files} rows={rows} layout={split ? 'split' : 'unified'} onTopFile={(index) => setSelectedPath(files[index]?.path ?? null)} />
          </div>
        )}
        <p className="changes-dialog__keys">
          <kbd>j</kbd>/<kbd>k</kbd> next/previous file · <kbd>n</kbd>/<kbd>p</kbd> next/previous hunk · <kbd>u</kbd> unified/split · <kbd>m</kbd> merge
        </p>
      </div>
      {merging && <MergeDialog agent={agent} worktree={worktree} onClose={() => setMerging(false)} />}
    </ModalDialog>
  );
}
