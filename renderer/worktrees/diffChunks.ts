import type { WorktreeDiffFile } from '../../shared/entities/worktrees';

/**
 * The diff as rows of a virtualised list: a heading per file, then its hunks, a long hunk cut into
 * pieces of at most `maxLines` lines. Each piece is a patch of its own (the file's header and a
 * valid `@@` line), so the diff viewer renders only the rows on screen.
 */
export type DiffRow =
  | { kind: 'file'; key: string; fileIndex: number; note: string | null }
  | { kind: 'hunk'; key: string; fileIndex: number; hunkIndex: number; patch: string; lines: number; continued: boolean };

const HUNK_HEADER = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@(.*)$/;

interface Hunk {
  oldStart: number;
  newStart: number;
  context: string;
  lines: string[];
}

/** The file header (everything before the first hunk) and the hunks of one file's patch. */
export function parseFilePatch(patch: string): { header: string; hunks: Hunk[] } {
  const lines = patch.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  const headerLines: string[] = [];
  const hunks: Hunk[] = [];
  for (const line of lines) {
    const match = HUNK_HEADER.exec(line);
    if (match) hunks.push({ oldStart: Number(match[1]), newStart: Number(match[3]), context: match[5] ?? '', lines: [] });
    else if (hunks.length === 0) headerLines.push(line);
    else hunks[hunks.length - 1]?.lines.push(line);
  }
  return { header: headerLines.join('\n'), hunks };
}

/** An `@@` line for lines starting at these numbers; an empty side names the line before it, as git does. */
function hunkHeader(oldStart: number, oldCount: number, newStart: number, newCount: number, context: string): string {
  const side = (start: number, count: number) => `${count === 0 ? start - 1 : start},${count}`;
  return `@@ -${side(oldStart, oldCount)} +${side(newStart, newCount)} @@${context}`;
}

/** Cuts a hunk into pieces of at most `maxLines` lines (a "\ No newline" marker stays with its line). */
function cutHunk(hunk: Hunk, maxLines: number): { text: string; lines: number }[] {
  const pieces: { text: string; lines: number }[] = [];
  let oldLine = hunk.oldStart === 0 ? 1 : hunk.oldStart;
  let newLine = hunk.newStart === 0 ? 1 : hunk.newStart;
  for (let start = 0; start < hunk.lines.length; ) {
    let end = Math.min(start + maxLines, hunk.lines.length);
    while (end < hunk.lines.length && hunk.lines[end]?.startsWith('\\')) end++;
    const body = hunk.lines.slice(start, end);
    const oldCount = body.filter((line) => line.startsWith(' ') || line.startsWith('-')).length;
    const newCount = body.filter((line) => line.startsWith(' ') || line.startsWith('+')).length;
    const header = hunkHeader(oldLine, oldCount, newLine, newCount, start === 0 ? hunk.context : '');
    pieces.push({ text: [header, ...body].join('\n'), lines: body.length });
    oldLine += oldCount;
    newLine += newCount;
    start = end;
  }
  return pieces;
}

/** Why a file has no lines to show, or null when it has. */
export function fileNote(file: WorktreeDiffFile): string | null {
  if (file.binary) return 'Binary file: no lines to show.';
  if (file.patch === null) return 'Too large to show here: run drover worktree diff, or git diff in the worktree.';
  if (!file.patch.includes('\n@@ ')) {
    if (file.status === 'renamed') return `Renamed from ${file.oldPath ?? '?'}, unchanged.`;
    if (file.status === 'added') return 'Empty file.';
    return 'No line changes (its mode changed).';
  }
  return null;
}

/**
 * Lines in a piece of a long hunk. The list mounts whole pieces, the one in view and one past it:
 * 40-line pieces cover a Changes view (36 lines at 900 px) with 80 lines mounted where 120-line
 * ones mounted 240, which the first paint spent most of its rendering and layout on.
 */
const PIECE_LINES = 40;

export function diffRows(files: readonly WorktreeDiffFile[], maxLines = PIECE_LINES): DiffRow[] {
  const rows: DiffRow[] = [];
  files.forEach((file, fileIndex) => {
    const note = fileNote(file);
    rows.push({ kind: 'file', key: `f:${file.path}`, fileIndex, note });
    if (note !== null || file.patch === null) return;
    const { header, hunks } = parseFilePatch(file.patch);
    hunks.forEach((hunk, hunkIndex) => {
      cutHunk(hunk, maxLines).forEach((piece, pieceIndex) => {
        rows.push({
          kind: 'hunk',
          key: `h:${file.path}:${hunkIndex}:${pieceIndex}`,
          fileIndex,
          hunkIndex,
          patch: `${header}\n${piece.text}\n`,
          lines: piece.lines,
          continued: pieceIndex > 0,
        });
      });
    });
  });
  return rows;
}
