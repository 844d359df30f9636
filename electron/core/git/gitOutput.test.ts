import { describe, expect, it } from 'vitest';
import { countPatchLines, parseNameStatus, parseStatusOrigins, splitPatch, untrackedFilePatch } from './diff';
import { parseGitVersion } from './runner';
import { parseStatusPaths } from './status';
import { parseWorktreeList } from './worktreeList';

describe("reading git's machine output", () => {
  it('reads versions, vendor suffixes included', () => {
    expect(parseGitVersion('git version 2.39.5\n')).toEqual([2, 39, 5]);
    expect(parseGitVersion('git version 2.45.1.windows.1')).toEqual([2, 45, 1]);
    expect(parseGitVersion('git version 2.38')).toEqual([2, 38, 0]);
    expect(parseGitVersion('hg 6.1')).toBeNull();
  });

  it('reads worktree lists with detached, bare and prunable entries', () => {
    const output = [
      'worktree /repo',
      'HEAD 1111111111111111111111111111111111111111',
      'branch refs/heads/main',
      '',
      'worktree /data/wt/back end',
      'HEAD 2222222222222222222222222222222222222222',
      'branch refs/heads/drover/back-end-ab12',
      '',
      'worktree /data/wt/detached',
      'HEAD 3333333333333333333333333333333333333333',
      'detached',
      'prunable gitdir file points to non-existent location',
      '',
      '',
    ].join('\0');
    expect(parseWorktreeList(output)).toEqual([
      { path: '/repo', head: '1111111111111111111111111111111111111111', branch: 'main', bare: false, prunable: false },
      { path: '/data/wt/back end', head: '2222222222222222222222222222222222222222', branch: 'drover/back-end-ab12', bare: false, prunable: false },
      { path: '/data/wt/detached', head: '3333333333333333333333333333333333333333', branch: null, bare: false, prunable: true },
    ]);
  });

  it('reads status paths, taking the new path of a rename', () => {
    expect(parseStatusPaths(' M a.txt\0R  new name.txt\0old name.txt\0?? dir/ü.txt\0')).toEqual(['a.txt', 'new name.txt', 'dir/ü.txt']);
  });

  it('pairs name-status with patches of the same diff, and counts their lines, renames and binaries included', () => {
    expect(parseNameStatus('M\0a.txt\0R090\0old.txt\0new.txt\0A\0pic.png\0')).toEqual([
      { status: 'modified', path: 'a.txt', oldPath: null },
      { status: 'renamed', path: 'new.txt', oldPath: 'old.txt' },
      { status: 'added', path: 'pic.png', oldPath: null },
    ]);
    const patch = 'diff --git a/a.txt b/a.txt\n--- a/a.txt\n+++ b/a.txt\n@@ -1,2 +1,2 @@\n-diff --git not a header\n+x\n+y\n context\ndiff --git a/b b/b\nBinary files a/b and b/b differ\n';
    const [text, binary] = splitPatch(patch);
    expect(text).toBe('diff --git a/a.txt b/a.txt\n--- a/a.txt\n+++ b/a.txt\n@@ -1,2 +1,2 @@\n-diff --git not a header\n+x\n+y\n context\n');
    expect(countPatchLines(text ?? '')).toEqual({ additions: 2, deletions: 1, binary: false });
    expect(countPatchLines(binary ?? '')).toEqual({ additions: 0, deletions: 0, binary: true });
    expect(splitPatch('')).toEqual([]);
  });

  it('tells staged, unstaged and untracked paths from git status', () => {
    const { staged, unstaged, untracked } = parseStatusOrigins('MM both.txt\0M  staged.txt\0 M worktree.txt\0R  new.txt\0old.txt\0?? dir/new file.md\0');
    expect([...staged]).toEqual(['both.txt', 'staged.txt', 'new.txt']);
    expect([...unstaged]).toEqual(['both.txt', 'worktree.txt']);
    expect(untracked).toEqual(['dir/new file.md']);
  });

  it('writes an untracked file as git would show it added', () => {
    expect(untrackedFilePatch('notes.md', Buffer.from('one\ntwo\n'), 0o100644)).toEqual({
      patch: 'diff --git a/notes.md b/notes.md\nnew file mode 100644\n--- /dev/null\n+++ b/notes.md\n@@ -0,0 +1,2 @@\n+one\n+two\n',
      additions: 2,
      binary: false,
    });
    expect(untrackedFilePatch('run.sh', Buffer.from('echo hi'), 0o100755).patch).toBe(
      'diff --git a/run.sh b/run.sh\nnew file mode 100755\n--- /dev/null\n+++ b/run.sh\n@@ -0,0 +1,1 @@\n+echo hi\n\\ No newline at end of file\n',
    );
    expect(untrackedFilePatch('blob.bin', Buffer.from([1, 0, 2]), 0o100644)).toMatchObject({ binary: true, additions: 0 });
    expect(untrackedFilePatch('empty', Buffer.alloc(0), 0o100644)).toEqual({ patch: 'diff --git a/empty b/empty\nnew file mode 100644\n', additions: 0, binary: false });
  });
});
