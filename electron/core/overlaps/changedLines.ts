import type { LineRange } from '../../../shared/overlaps';
import { splitPatch } from '../git/diff';

/** Each changed file's lines, as ranges of the file where the branch left its parent. */
export type ChangedLines = ReadonlyMap<string, readonly LineRange[]>;

const HUNK_HEADER = /^@@ -(\d+)(?:,(\d+))? \+\d+(?:,\d+)? @@/;

/**
 * The lines one file's `git diff -U0` patch changes, on the old side: a hunk that removes or
 * rewrites lines covers them, and one that only inserts counts as the line it follows (the first,
 * at the top of the file), since two changes there touch each other as git's merge sees it.
 */
export function hunkRanges(filePatch: string): LineRange[] {
  const ranges: LineRange[] = [];
  for (const line of filePatch.split('\n')) {
    const match = HUNK_HEADER.exec(line);
    if (!match) continue;
    const start = Number(match[1]);
    const count = match[2] === undefined ? 1 : Number(match[2]);
    const from = Math.max(start, 1);
    ranges.push(count === 0 ? [from, from] : [from, start + count - 1]);
  }
  return ranges;
}

/** Pairs `git diff --name-only -z` names with the same diff's `-U0` patch, file by file (both in git's order). */
export function changedLinesOf(names: readonly string[], patch: string): Map<string, LineRange[]> {
  const patches = splitPatch(patch);
  return new Map(names.map((name, index) => [name, hunkRanges(patches[index] ?? '')]));
}

/** The lines both sets of ranges cover, merged where they touch. */
export function sharedRanges(first: readonly LineRange[], second: readonly LineRange[]): LineRange[] {
  const shared: LineRange[] = [];
  for (const [fromA, toA] of first) {
    for (const [fromB, toB] of second) {
      const from = Math.max(fromA, fromB);
      const to = Math.min(toA, toB);
      if (from <= to) shared.push([from, to]);
    }
  }
  shared.sort((a, b) => a[0] - b[0]);
  const merged: LineRange[] = [];
  for (const range of shared) {
    const last = merged[merged.length - 1];
    if (last && range[0] <= last[1] + 1) last[1] = Math.max(last[1], range[1]);
    else merged.push([range[0], range[1]]);
  }
  return merged;
}

/** The files both agents change, each with the lines both change, by path. */
export function overlappingFiles(first: ChangedLines, second: ChangedLines): { path: string; lines: LineRange[] }[] {
  const files: { path: string; lines: LineRange[] }[] = [];
  for (const [path, ranges] of first) {
    const other = second.get(path);
    if (other) files.push({ path, lines: sharedRanges(ranges, other) });
  }
  return files.sort((a, b) => a.path.localeCompare(b.path));
}
