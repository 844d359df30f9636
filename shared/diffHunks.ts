/**
 * One file's patch as git prints it: the header (everything before the first `@@` line) and each
 * hunk's text, from its `@@` line to the next. The changes view names a hunk by this text, and the
 * host finds it again in the file's diff by the same cut.
 */
export function splitHunks(patch: string): { header: string; hunks: string[] } {
  const lines = patch.split('\n');
  if (lines.at(-1) === '') lines.pop();
  const first = lines.findIndex((line) => line.startsWith('@@ '));
  if (first < 0) return { header: lines.join('\n'), hunks: [] };
  const hunks: string[][] = [];
  for (const line of lines.slice(first)) {
    if (line.startsWith('@@ ')) hunks.push([line]);
    else hunks.at(-1)?.push(line);
  }
  return { header: lines.slice(0, first).join('\n'), hunks: hunks.map((hunk) => hunk.join('\n')) };
}

const HUNK_RANGES = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/;

/**
 * A hunk's text with its `@@` line written one way: git leaves out a count of 1 (`+1` for `+1,1`),
 * and a hunk drawn for a file git does not track yet may not.
 */
export function canonicalHunk(hunk: string): string {
  const newline = hunk.indexOf('\n');
  const [first, rest] = newline < 0 ? [hunk, ''] : [hunk.slice(0, newline), hunk.slice(newline)];
  const match = HUNK_RANGES.exec(first);
  if (!match) return hunk;
  const [whole, oldStart, oldCount = '1', newStart, newCount = '1'] = match;
  return `@@ -${oldStart},${oldCount} +${newStart},${newCount} @@${first.slice(whole.length)}${rest}`;
}
