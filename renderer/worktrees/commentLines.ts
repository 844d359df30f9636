import type { WorktreeDiffFile } from '../../shared/entities/worktrees';
import type { DiffSide } from '../../shared/turns';
import { parseFilePatch } from './diffChunks';

/** The lines a file's patch shows on one side, by line number: context and added lines (new), context and removed ones (old). */
export function linesOnSide(patch: string, side: DiffSide): Map<number, string> {
  const shown = new Map<number, string>();
  for (const hunk of parseFilePatch(patch).hunks) {
    let oldLine = hunk.oldStart;
    let newLine = hunk.newStart;
    for (const line of hunk.lines) {
      const mark = line[0];
      const text = line.slice(1);
      if (mark === ' ') {
        shown.set(side === 'old' ? oldLine : newLine, text);
        oldLine++;
        newLine++;
      } else if (mark === '-') {
        if (side === 'old') shown.set(oldLine, text);
        oldLine++;
      } else if (mark === '+') {
        if (side === 'new') shown.set(newLine, text);
        newLine++;
      }
    }
  }
  return shown;
}

/** The text of lines `start`–`end` on one side, as far as the diff shows them (each ends with a newline). */
export function quotedLines(patch: string | null, side: DiffSide, start: number, end: number): string {
  if (patch === null) return '';
  const shown = linesOnSide(patch, side);
  let quoted = '';
  for (let line = start; line <= end; line++) {
    const text = shown.get(line);
    if (text !== undefined) quoted += `${text}\n`;
  }
  return quoted;
}

/** The first changed line on a side, for a comment that starts without a selection. */
export function firstChangedLine(patch: string | null, side: DiffSide): number | null {
  if (patch === null) return null;
  for (const hunk of parseFilePatch(patch).hunks) {
    let line = side === 'old' ? hunk.oldStart : hunk.newStart;
    for (const text of hunk.lines) {
      const mark = text[0];
      if (mark === (side === 'old' ? '-' : '+')) return line;
      if (mark === ' ' || mark === (side === 'old' ? '-' : '+')) line++;
    }
  }
  return null;
}

/** Where "Open in editor" takes a file of a diff: its first changed line as it is now. */
export function firstChangedLineOf(file: WorktreeDiffFile): number {
  return firstChangedLine(file.patch, 'new') ?? 1;
}
