import { describe, expect, it } from 'vitest';
import type { WorktreeDiffFile } from '../../shared/entities/worktrees';
import { diffRows, fileNote, parseFilePatch } from './diffChunks';

const file = (patch: string | null, extra: Partial<WorktreeDiffFile> = {}): WorktreeDiffFile => ({
  path: 'src/app.ts',
  oldPath: null,
  status: 'modified',
  additions: 0,
  deletions: 0,
  binary: false,
  origins: ['committed'],
  patch,
  ...extra,
});

const HEADER = 'diff --git a/src/app.ts b/src/app.ts\nindex 1111111..2222222 100644\n--- a/src/app.ts\n+++ b/src/app.ts';

describe('diff rows for the virtualised view', () => {
  it('keeps short hunks whole, one row each, after the file heading', () => {
    const patch = `${HEADER}\n@@ -1,2 +1,2 @@ function a()\n-old\n+new\n same\n@@ -10 +10,2 @@\n x\n+y\n`;
    const rows = diffRows([file(patch)]);
    expect(rows.map((row) => (row.kind === 'file' ? row.kind : `${row.kind} ${row.hunkIndex} ${row.lines}`))).toEqual(['file', 'hunk 0 3', 'hunk 1 2']);
    expect(rows[1]).toMatchObject({ patch: `${HEADER}\n@@ -1,2 +1,2 @@ function a()\n-old\n+new\n same\n`, continued: false });
    expect(parseFilePatch(patch).hunks.map((hunk) => hunk.oldStart)).toEqual([1, 10]);
  });

  it('cuts a long hunk into pieces whose @@ lines count their own lines', () => {
    const body = ['-a', '-b', '+A', ' c', '+D', '+E', ' f'];
    const rows = diffRows([file(`${HEADER}\n@@ -5,4 +5,6 @@ ctx\n${body.join('\n')}\n`)], 3);
    const pieces = rows.filter((row) => row.kind === 'hunk');
    expect(pieces.map((row) => row.patch.split('\n').slice(4).join('\n'))).toEqual([
      '@@ -5,2 +5,1 @@ ctx\n-a\n-b\n+A\n',
      '@@ -7,1 +6,3 @@\n c\n+D\n+E\n',
      '@@ -8,1 +9,1 @@\n f\n',
    ]);
    expect(pieces.map((row) => row.continued)).toEqual([false, true, true]);
  });

  it('cuts a hunk longer than a Changes view shows into pieces of at most 40 lines, so the view mounts little beyond what it shows', () => {
    const body = Array.from({ length: 5_000 }, (_, line) => (line < 2_500 ? `-old ${line}` : `+new ${line}`));
    const pieces = diffRows([file(`${HEADER}\n@@ -1,2500 +1,2500 @@\n${body.join('\n')}\n`)]).filter((row) => row.kind === 'hunk');
    expect(pieces).toHaveLength(125);
    expect(pieces.every((row) => row.lines === 40)).toBe(true);
  });

  it('writes an empty side as git does, and keeps a no-newline marker with its line', () => {
    const added = `diff --git a/n b/n\nnew file mode 100644\n--- /dev/null\n+++ b/n\n@@ -0,0 +1,3 @@\n+1\n+2\n+3\n\\ No newline at end of file\n`;
    const pieces = diffRows([file(added, { path: 'n', status: 'added' })], 2).filter((row) => row.kind === 'hunk');
    expect(pieces.map((row) => row.patch.split('\n').slice(4).join('\n'))).toEqual(['@@ -0,0 +1,2 @@\n+1\n+2\n', '@@ -0,0 +3,1 @@\n+3\n\\ No newline at end of file\n']);
  });

  it('says why a file shows no lines', () => {
    expect(fileNote(file('diff --git a/x b/x\nBinary files differ\n', { binary: true }))).toMatch(/Binary file/);
    expect(fileNote(file(null))).toMatch(/Too large to show here/);
    expect(fileNote(file('diff --git a/a b/b\nsimilarity index 100%\nrename from a\nrename to b\n', { status: 'renamed', oldPath: 'a' }))).toBe('Renamed from a, unchanged.');
    expect(fileNote(file('diff --git a/e b/e\nnew file mode 100644\n', { status: 'added' }))).toBe('Empty file.');
    expect(diffRows([file(null)]).map((row) => row.kind)).toEqual(['file']);
  });
});
