import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { commitFiles, git, makeRepo, writeFiles } from '../../../test-support/gitRepo';
import { makeTempDir, removeDir } from '../../../test-support/tempDir';
import { Git } from '../git/runner';
import { GitSession } from '../git/session';
import { Checkpoints, parseShortStat } from './checkpoints';

/** Every file under `root` but .git, with its bytes and mode (what a restore must give back exactly). */
function filesOf(root: string): Record<string, string> {
  const found: Record<string, string> = {};
  const visit = (folder: string) => {
    for (const entry of fs.readdirSync(folder, { withFileTypes: true })) {
      const full = path.join(folder, entry.name);
      const relative = path.relative(root, full);
      if (relative === '.git') continue;
      if (entry.isDirectory()) visit(full);
      else if (entry.isSymbolicLink()) found[relative] = `link -> ${fs.readlinkSync(full)}`;
      else found[relative] = `${(fs.statSync(full).mode & 0o777).toString(8)} ${createHash('sha256').update(fs.readFileSync(full)).digest('hex')}`;
    }
  };
  visit(root);
  return found;
}

/** What git keeps of a checkout besides its files: the index (bytes and mtime), HEAD, the branch and its reflog. */
function gitStateOf(repo: string): Record<string, string> {
  const index = path.join(repo, '.git', 'index');
  return {
    index: createHash('sha256').update(fs.readFileSync(index)).digest('hex'),
    indexMtime: String(fs.statSync(index).mtimeMs),
    head: git(repo, 'rev-parse', 'HEAD'),
    symbolicHead: git(repo, 'symbolic-ref', 'HEAD'),
    reflog: git(repo, 'reflog', 'show', '--format=%H %gs', 'main'),
    status: git(repo, '--no-optional-locks', 'status', '--porcelain=v2', '--untracked-files=all'),
  };
}

/** The gits this process started that work in `folder` now (from /proc). */
function gitsOfThisProcessIn(folder: string): number[] {
  return fs
    .readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map(Number)
    .filter((pid) => {
      try {
        const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
        const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
        return parent === process.pid && fs.readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === 'git' && fs.readlinkSync(`/proc/${pid}/cwd`) === folder;
      } catch {
        return false;
      }
    });
}

describe('checkpoints (real git)', () => {
  let dir: string;
  let repo: string;
  let checkpoints: Checkpoints;

  beforeEach(() => {
    dir = makeTempDir();
    repo = makeRepo(path.join(dir, 'repo'), {
      'kept.txt': 'kept\n',
      'staged.txt': 'staged before\n',
      'unstaged.txt': 'unstaged before\n',
      'both.txt': 'both before\n',
      'gone.txt': 'deleted in the tree\n',
      'old-name.txt': 'renamed, same content\n',
      'src/tool.sh': '#!/bin/sh\necho tool\n',
      '.gitignore': 'build/\n*.log\n',
    });
    checkpoints = new Checkpoints(new Git(process.env));
  });
  afterEach(() => removeDir(dir));

  /** A tree with every kind of uncommitted change at once. */
  function makeEveryKindOfChange(): void {
    writeFiles(repo, { 'staged.txt': 'staged after\n', 'both.txt': 'both staged\n' });
    git(repo, 'add', 'staged.txt', 'both.txt');
    writeFiles(repo, { 'both.txt': 'both staged, then changed again\n', 'unstaged.txt': 'unstaged after\n', 'new/untracked.txt': 'untracked\n', 'binary.bin': '\u0000\u0001\u0002' });
    fs.chmodSync(path.join(repo, 'src', 'tool.sh'), 0o755);
    fs.symlinkSync('kept.txt', path.join(repo, 'link-to-kept'));
    fs.rmSync(path.join(repo, 'gone.txt'));
    git(repo, 'mv', 'old-name.txt', 'new-name.txt');
    writeFiles(repo, { 'build/out.js': 'ignored output\n', 'debug.log': 'ignored log\n' });
  }

  it('takes a checkpoint without touching the index, HEAD or any file', async () => {
    makeEveryKindOfChange();
    const before = { git: gitStateOf(repo), files: filesOf(repo) };
    const snapshot = await checkpoints.snapshot(repo, 'turn 1');
    expect(gitStateOf(repo)).toEqual(before.git);
    expect(filesOf(repo)).toEqual(before.files);

    // The tree has the working files (not the ignored ones); the parents are HEAD and the index.
    const tree = git(repo, 'ls-tree', '-r', '--name-only', snapshot.commit).split('\n');
    expect(tree).toEqual(expect.arrayContaining(['new/untracked.txt', 'new-name.txt', 'link-to-kept', 'binary.bin', 'both.txt']));
    expect(tree).not.toContain('gone.txt');
    expect(tree).not.toContain('old-name.txt');
    expect(tree.filter((file) => file.startsWith('build/') || file.endsWith('.log'))).toEqual([]);
    expect(git(repo, 'show', `${snapshot.commit}:both.txt`)).toBe('both staged, then changed again');
    expect(git(repo, 'rev-parse', `${snapshot.commit}^1`)).toBe(before.git.head);
    expect(git(repo, 'show', `${snapshot.commit}^2:both.txt`)).toBe('both staged');
    expect(git(repo, 'rev-parse', `${snapshot.commit}^{tree}`)).toBe(snapshot.tree);
    expect(git(repo, 'log', '-1', '--format=%an <%ae>', snapshot.commit)).toBe('Drover <drover@localhost>');
  });

  it('restores a checkpoint byte for byte, with its index and HEAD, and leaves ignored files alone', async () => {
    makeEveryKindOfChange();
    const expected = { files: filesOf(repo), status: git(repo, '--no-optional-locks', 'status', '--porcelain=v2', '--untracked-files=all'), head: git(repo, 'rev-parse', 'HEAD') };
    const snapshot = await checkpoints.snapshot(repo, 'turn 1');

    // The agent carries on: commits some of it, changes and removes more, makes new files.
    commitFiles(repo, { 'kept.txt': 'kept, changed and committed\n' }, 'later work');
    writeFiles(repo, { 'new/untracked.txt': 'changed later\n', 'later.txt': 'made later\n', 'build/out.js': 'rebuilt\n' });
    fs.rmSync(path.join(repo, 'binary.bin'));
    fs.rmSync(path.join(repo, 'link-to-kept'));
    fs.chmodSync(path.join(repo, 'src', 'tool.sh'), 0o644);

    const changed = await checkpoints.restore(repo, 'main', snapshot.commit);
    expect(changed).toEqual(expect.arrayContaining(['later.txt', 'binary.bin', 'link-to-kept', 'new/untracked.txt', 'src/tool.sh']));
    const restored = filesOf(repo);
    // Ignored files are never the checkpoint's business: the rebuilt output stays as it is.
    expect(restored['build/out.js']).not.toBe(expected.files['build/out.js']);
    expect({ ...restored, 'build/out.js': '' }).toEqual({ ...expected.files, 'build/out.js': '' });
    expect(git(repo, 'rev-parse', 'HEAD')).toBe(expected.head);
    expect(git(repo, '--no-optional-locks', 'status', '--porcelain=v2', '--untracked-files=all')).toBe(expected.status);
  });

  it('refuses to restore into a worktree on another branch, changing nothing', async () => {
    const snapshot = await checkpoints.snapshot(repo, 'start');
    git(repo, 'switch', '--quiet', '-c', 'elsewhere');
    writeFiles(repo, { 'kept.txt': 'changed elsewhere\n' });
    await expect(checkpoints.restore(repo, 'main', snapshot.commit)).rejects.toThrow(/branch elsewhere checked out, not main/);
    expect(fs.readFileSync(path.join(repo, 'kept.txt'), 'utf8')).toBe('changed elsewhere\n');
  });

  it('restores a worktree holding a file named like pathspec magic: no path is read as a pattern', async () => {
    const snapshot = await checkpoints.snapshot(repo, 'start');
    const expected = filesOf(repo);
    writeFiles(repo, { ':(exclude)*': 'reads as "everything but me"\n', 'kept.txt': 'changed after\n', ':(glob)**': 'another\n' });
    const changed = await checkpoints.restore(repo, 'main', snapshot.commit);
    expect(changed.sort()).toEqual([':(exclude)*', ':(glob)**', 'kept.txt']);
    expect(filesOf(repo)).toEqual(expected);
  });

  it('fails a restore whose files still differ from the checkpoint afterwards, naming them, and switches the files back: nothing changes', async () => {
    // The person's filter writes the file otherwise than it reads it, so a restored file is not the checkpoint's.
    git(repo, 'config', 'filter.twist.smudge', 'sed s/^then$/twisted/');
    git(repo, 'config', 'filter.twist.clean', 'cat');
    commitFiles(repo, { '.gitattributes': 'twisted.txt filter=twist\n', 'twisted.txt': 'then\n' }, 'a file the filter twists');
    const then = await checkpoints.snapshot(repo, 'then');
    writeFiles(repo, { 'twisted.txt': 'now\n', 'later.txt': 'made later\n' });
    const before = { files: filesOf(repo), git: gitStateOf(repo) };
    await expect(checkpoints.restore(repo, 'main', then.commit)).rejects.toThrow(
      'After the restore the worktree still differed from the checkpoint in 1 path: twisted.txt. The files were switched back: nothing was changed.',
    );
    expect({ files: filesOf(repo), git: gitStateOf(repo) }).toEqual(before);
  });

  it('refuses, naming it, a restore that would move or remove a repository checked out inside the worktree, and changes nothing', async () => {
    const snapshot = await checkpoints.snapshot(repo, 'start');
    // A repository of its own inside the worktree: only a git inside its folder could take it back.
    const nested = path.join(repo, 'vendor', 'tool');
    fs.mkdirSync(nested, { recursive: true });
    git(nested, 'init', '--quiet');
    commitFiles(nested, { 'tool.txt': 'tool\n' }, 'the tool');
    writeFiles(repo, { 'kept.txt': 'changed after\n' });
    const before = { files: filesOf(repo), git: gitStateOf(repo) };
    await expect(checkpoints.restore(repo, 'main', snapshot.commit)).rejects.toThrow(
      /^Restoring would move 1 submodule checked out in the worktree \(vendor\/tool, which the checkpoint has not\), and Drover runs no git inside a submodule's folder/,
    );
    expect({ files: filesOf(repo), git: gitStateOf(repo) }).toEqual(before);
  });

  it('puts back a file where a folder is now, and a folder where a file is now', async () => {
    writeFiles(repo, { shape: 'a file\n' });
    const asFile = { snapshot: await checkpoints.snapshot(repo, 'a file'), files: filesOf(repo) };
    fs.rmSync(path.join(repo, 'shape'));
    writeFiles(repo, { 'shape/inside.txt': 'now a folder\n', 'shape/deeper/more.txt': 'more\n' });
    const asFolder = { snapshot: await checkpoints.snapshot(repo, 'a folder'), files: filesOf(repo) };

    expect(await checkpoints.restore(repo, 'main', asFile.snapshot.commit)).toEqual(['shape', 'shape/deeper/more.txt', 'shape/inside.txt']);
    expect(filesOf(repo)).toEqual(asFile.files);
    await checkpoints.restore(repo, 'main', asFolder.snapshot.commit);
    expect(filesOf(repo)).toEqual(asFolder.files);
  });

  it('puts back a folder where a link is now, and a link where a folder is now', async () => {
    writeFiles(repo, { 'lib/code.txt': 'code\n', 'elsewhere/other.txt': 'other\n' });
    const asFolder = { snapshot: await checkpoints.snapshot(repo, 'a folder'), files: filesOf(repo) };
    fs.rmSync(path.join(repo, 'lib'), { recursive: true });
    fs.symlinkSync('elsewhere', path.join(repo, 'lib'));
    const asLink = { snapshot: await checkpoints.snapshot(repo, 'a link'), files: filesOf(repo) };

    await checkpoints.restore(repo, 'main', asFolder.snapshot.commit);
    expect(fs.lstatSync(path.join(repo, 'lib')).isDirectory()).toBe(true);
    expect(filesOf(repo)).toEqual(asFolder.files);
    await checkpoints.restore(repo, 'main', asLink.snapshot.commit);
    expect(fs.readlinkSync(path.join(repo, 'lib'))).toBe('elsewhere');
    expect(filesOf(repo)).toEqual(asLink.files);
    expect(fs.readFileSync(path.join(repo, 'elsewhere', 'other.txt'), 'utf8')).toBe('other\n');
  });

  it('refuses, naming them, a restore that would overwrite or remove files git ignores now, and changes nothing', async () => {
    // Back then .env and build were files like any other; since then they are ignored, .env holds today's secret and build/ is output.
    writeFiles(repo, { '.env': 'SECRET=old\n', build: 'a file then\n' });
    const then = await checkpoints.snapshot(repo, 'then');
    fs.rmSync(path.join(repo, 'build'));
    writeFiles(repo, { '.env': 'SECRET=today\n', 'build/out.js': 'built\n', '.gitignore': 'build/\n*.log\n.env\n' });
    const before = { files: filesOf(repo), git: gitStateOf(repo) };
    await expect(checkpoints.restore(repo, 'main', then.commit)).rejects.toThrow(
      /Restoring would overwrite or remove 2 paths git ignores in the worktree now \(\.env, build\/\), and no checkpoint holds ignored files, so undoing the restore could not bring them back\. Move them out of the worktree, then restore again\. Nothing was changed\./,
    );
    await expect(checkpoints.checkRestore(repo, 'main', then.commit)).rejects.toThrow(/\(\.env, build\/\)/);
    expect({ files: filesOf(repo), git: gitStateOf(repo) }).toEqual(before);
  });

  it('refuses, naming them, a restore that changes a .gitignore so that files git ignores now would no longer be ignored, and changes nothing', async () => {
    // Back then .gitignore did not name *.log; now it does, and app.log holds a secret (build/ stays ignored either way).
    writeFiles(repo, { '.gitignore': 'build/\n' });
    const then = await checkpoints.snapshot(repo, 'then');
    writeFiles(repo, { '.gitignore': 'build/\n*.log\n', 'app.log': 'SECRET\n', 'build/out.js': 'built\n', 'logs/today.log': 'today\n' });
    const before = { files: filesOf(repo), git: gitStateOf(repo) };
    await expect(checkpoints.restore(repo, 'main', then.commit)).rejects.toThrow(
      'Restoring would change .gitignore, and git would no longer ignore 2 paths it ignores in the worktree now (app.log, logs/): the worktree would differ from the checkpoint, and undoing the restore would remove them. Move them out of the worktree, then restore again. Nothing was changed.',
    );
    expect({ files: filesOf(repo), git: gitStateOf(repo) }).toEqual(before);

    fs.renameSync(path.join(repo, 'app.log'), path.join(dir, 'app.log'));
    fs.rmSync(path.join(repo, 'logs'), { recursive: true });
    await checkpoints.restore(repo, 'main', then.commit);
    expect(fs.readFileSync(path.join(repo, '.gitignore'), 'utf8')).toBe('build/\n');
    expect(fs.readFileSync(path.join(repo, 'build', 'out.js'), 'utf8')).toBe('built\n');
  });

  it("restores a .gitignore under whose rules git still ignores, file by file, every file it ignores now", async () => {
    // Back then *.log and src/'s own *.tmp were ignored; now logs/ is ignored as a folder and *.tmp from the top: each of those files stays ignored.
    writeFiles(repo, { 'src/.gitignore': '*.tmp\n' });
    const then = await checkpoints.snapshot(repo, 'then');
    fs.rmSync(path.join(repo, 'src', '.gitignore'));
    writeFiles(repo, { '.gitignore': 'build/\nlogs/\n*.tmp\n', 'logs/today.log': 'today\n', 'logs/old/monday.log': 'monday\n', 'src/scratch.tmp': 'scratch\n' });
    await checkpoints.restore(repo, 'main', then.commit);
    expect(fs.readFileSync(path.join(repo, '.gitignore'), 'utf8')).toBe('build/\n*.log\n');
    expect(fs.readFileSync(path.join(repo, 'src', '.gitignore'), 'utf8')).toBe('*.tmp\n');
    for (const file of ['logs/today.log', 'logs/old/monday.log', 'src/scratch.tmp']) expect(fs.existsSync(path.join(repo, file)), file).toBe(true);

    // A file of that folder the checkpoint's rules leave out is named with its folder.
    writeFiles(repo, { '.gitignore': 'build/\nlogs/\n', 'logs/notes.txt': 'notes\n' });
    await expect(checkpoints.checkRestore(repo, 'main', then.commit)).rejects.toThrow(/git would no longer ignore 1 path it ignores in the worktree now \(logs\/\)/);
  });

  it("refuses a checkpoint whose tree names a .gitignore outside the worktree, and writes nothing there", async () => {
    const tmp = path.join(dir, 'tmp');
    fs.mkdirSync(tmp);
    writeFiles(repo, { 'app.log': 'ignored now\n' });
    // git itself never makes a tree entry named `..`, but git mktree does.
    const fed = (input: string, ...args: string[]) => execFileSync('git', args, { cwd: repo, input, encoding: 'utf8' }).trim();
    const rules = fed('app.log\n', 'hash-object', '-w', '--stdin');
    const inner = fed(`100644 blob ${rules}\t.gitignore\n`, 'mktree');
    const tree = fed(`040000 tree ${inner}\t..\n100644 blob ${rules}\t.gitignore\n`, 'mktree');
    const head = git(repo, 'rev-parse', 'HEAD');
    const commit = git(repo, 'commit-tree', tree, '-p', head, '-p', head, '-m', 'planted');
    const before = { files: filesOf(repo), git: gitStateOf(repo) };
    const tmpdir = process.env.TMPDIR;
    process.env.TMPDIR = tmp;
    try {
      await expect(checkpoints.checkRestore(repo, 'main', commit)).rejects.toThrow("The checkpoint's tree names ../.gitignore, which is not a path inside the worktree: nothing of it was written, and nothing was changed.");
    } finally {
      if (tmpdir === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = tmpdir;
    }
    expect(fs.readdirSync(tmp)).toEqual([]);
    expect({ files: filesOf(repo), git: gitStateOf(repo) }).toEqual(before);
  });

  it('counts files and lines between two states, and what only checkpoints hold on disk', async () => {
    const start = await checkpoints.snapshot(repo, 'start');
    writeFiles(repo, { 'kept.txt': 'one\ntwo\n', 'added.txt': 'a\nb\nc\n' });
    const turn = await checkpoints.snapshot(repo, 'turn');
    expect(await checkpoints.stats(repo, start.commit, turn.commit)).toEqual({ files: 2, additions: 5, deletions: 1 });
    expect(await checkpoints.stats(repo, turn.commit, turn.tree)).toEqual({ files: 0, additions: 0, deletions: 0 });
    fs.renameSync(path.join(repo, 'added.txt'), path.join(repo, 'moved.txt'));
    const moved = await checkpoints.snapshot(repo, 'moved');
    expect(await checkpoints.stats(repo, turn.commit, moved.commit)).toEqual({ files: 1, additions: 0, deletions: 0 });
    expect(await checkpoints.diskUsage(repo, ['refs/drover/checkpoints/a-x'])).toBe(0);
    await checkpoints.setRef(repo, 'refs/drover/checkpoints/a-x/1', turn.commit);
    expect(await checkpoints.refs(repo, 'refs/drover/checkpoints/a-x')).toEqual([{ ref: 'refs/drover/checkpoints/a-x/1', commit: turn.commit }]);
    expect(await checkpoints.diskUsage(repo, ['refs/drover/checkpoints/a-x'])).toBeGreaterThan(0);
  });

  it('takes a checkpoint under its ref, counting what changed since an earlier state', async () => {
    const start = await checkpoints.snapshot(repo, 'start');
    writeFiles(repo, { 'kept.txt': 'one\ntwo\n', 'added.txt': 'a\nb\nc\n' });
    const { snapshot, stats } = await checkpoints.take(repo, 'turn 1', 'refs/drover/checkpoints/a-x/1', start.commit);
    expect(stats).toEqual({ files: 2, additions: 5, deletions: 1 });
    expect(git(repo, 'rev-parse', 'refs/drover/checkpoints/a-x/1')).toBe(snapshot.commit);
    expect(git(repo, 'rev-parse', `${snapshot.commit}^{tree}`)).toBe(snapshot.tree);
    expect(git(repo, 'log', '-1', '--format=%s', snapshot.commit)).toBe('turn 1');
    expect(git(repo, 'log', '-1', '--format=%an <%ae>, %cn <%ce>', snapshot.commit)).toBe('Drover <drover@localhost>, Drover <drover@localhost>');
    expect(Math.abs(Number(git(repo, 'log', '-1', '--format=%ct', snapshot.commit)) - Date.now() / 1000)).toBeLessThan(60);
    expect(git(repo, 'fsck', '--no-dangling', '--strict')).toBe('');
  });

  it("commits the index as each checkpoint finds it, on the HEAD of the moment", async () => {
    const first = await checkpoints.snapshot(repo, 'first');
    git(repo, 'commit', '--quiet', '--allow-empty', '-m', 'HEAD moves, the index stays');
    const second = await checkpoints.snapshot(repo, 'second');
    expect(git(repo, 'rev-parse', `${second.commit}^2^`)).toBe(git(repo, 'rev-parse', 'HEAD'));
    expect(git(repo, 'rev-parse', `${second.commit}^2^{tree}`)).toBe(git(repo, 'rev-parse', `${first.commit}^2^{tree}`));
    writeFiles(repo, { 'staged.txt': 'staged between checkpoints\n' });
    git(repo, 'add', 'staged.txt');
    const third = await checkpoints.snapshot(repo, 'third');
    expect(git(repo, 'show', `${third.commit}^2:staged.txt`)).toBe('staged between checkpoints');
    expect(git(repo, 'rev-parse', `${third.commit}^2^{tree}`)).toBe(git(repo, 'write-tree'));
  });

  it('takes the commit of the same index on the same HEAD again', async () => {
    const runner = new Git(process.env);
    checkpoints = new Checkpoints(runner);
    writeFiles(repo, { 'staged.txt': 'staged once\n' });
    git(repo, 'add', 'staged.txt');
    const first = await checkpoints.snapshot(repo, 'first');
    writeFiles(repo, { 'unstaged.txt': 'changed, not staged\n' });
    const run = vi.spyOn(runner, 'run');
    const requests = vi.spyOn(GitSession.prototype, 'request');
    const second = await checkpoints.snapshot(repo, 'second');
    // Made within the same second, a new commit of the index would have the same id: only the snapshot's own tree and commit are made.
    expect(run.mock.calls.filter(([, args]) => args[0] === 'write-tree')).toHaveLength(1);
    expect(requests.mock.calls.filter(([input]) => input.includes('drover-commit-'))).toHaveLength(1);
    requests.mockRestore();
    expect(second.tree).not.toBe(first.tree);
    expect(git(repo, 'rev-parse', `${second.commit}^2`)).toBe(git(repo, 'rev-parse', `${first.commit}^2`));
    expect(git(repo, 'rev-parse', `${second.commit}^1`)).toBe(git(repo, 'rev-parse', 'HEAD'));
  });

  it('takes a checkpoint when the gits kept running for its worktree were killed: they are started again', async () => {
    const start = await checkpoints.snapshot(repo, 'start');
    await checkpoints.take(repo, 'turn 1', 'refs/drover/checkpoints/a-x/1', start.commit);
    const killed = gitsOfThisProcessIn(repo);
    // One answers names (HEAD), one writes refs, one commits, one counts lines.
    expect(killed).toHaveLength(4);
    for (const pid of killed) process.kill(pid, 'SIGKILL');
    writeFiles(repo, { 'kept.txt': 'after the kill\n' });
    const { snapshot, stats } = await checkpoints.take(repo, 'turn 2', 'refs/drover/checkpoints/a-x/2', start.commit);
    expect(git(repo, 'rev-parse', 'refs/drover/checkpoints/a-x/2')).toBe(snapshot.commit);
    expect(git(repo, 'show', `${snapshot.commit}:kept.txt`)).toBe('after the kill');
    expect(git(repo, 'rev-parse', `${snapshot.commit}^1`)).toBe(git(repo, 'rev-parse', 'HEAD'));
    expect(stats).toEqual({ files: 1, additions: 1, deletions: 1 });
    const running = gitsOfThisProcessIn(repo);
    expect(running).toHaveLength(4);
    expect(running.filter((pid) => killed.includes(pid))).toEqual([]);
  });

  it("writes the index's tree again when git no longer has the one written for the same index", async () => {
    writeFiles(repo, { 'staged.txt': 'staged, then pruned\n' });
    git(repo, 'add', 'staged.txt');
    writeFiles(repo, { 'unstaged.txt': 'so the files make another tree\n' });
    const first = await checkpoints.snapshot(repo, 'first');
    const indexTree = git(repo, 'rev-parse', `${first.commit}^2^{tree}`);
    // As a gc after the checkpoints holding it were pruned would.
    fs.rmSync(path.join(repo, '.git', 'objects', indexTree.slice(0, 2), indexTree.slice(2)));
    const second = await checkpoints.snapshot(repo, 'second');
    expect(git(repo, 'rev-parse', `${second.commit}^2^{tree}`)).toBe(indexTree);
    expect(git(repo, 'cat-file', '-t', indexTree)).toBe('tree');
  });

  it('knows a checkpoint that alone holds commits a branch moved away from', async () => {
    commitFiles(repo, { 'kept.txt': 'work a restore takes back\n' }, 'later work');
    const holding = await checkpoints.snapshot(repo, 'before the restore');
    await checkpoints.setRef(repo, 'refs/drover/checkpoints/a-x/2', holding.commit);
    expect(await checkpoints.holdsOrphanCommits(repo, 'refs/drover/checkpoints/a-x/2', 'refs/drover/checkpoints')).toBe(false);
    git(repo, 'reset', '--quiet', '--hard', 'HEAD~1');
    expect(await checkpoints.holdsOrphanCommits(repo, 'refs/drover/checkpoints/a-x/2', 'refs/drover/checkpoints')).toBe(true);
    // Another checkpoint holding the same commit makes this one no longer the only one.
    await checkpoints.setRef(repo, 'refs/drover/checkpoints/a-x/3', holding.commit);
    expect(await checkpoints.holdsOrphanCommits(repo, 'refs/drover/checkpoints/a-x/2', 'refs/drover/checkpoints')).toBe(false);
  });

  it('reads git --shortstat', () => {
    expect(parseShortStat(' 3 files changed, 10 insertions(+), 2 deletions(-)\n')).toEqual({ files: 3, additions: 10, deletions: 2 });
    expect(parseShortStat(' 1 file changed, 1 deletion(-)\n')).toEqual({ files: 1, additions: 0, deletions: 1 });
    expect(parseShortStat('')).toEqual({ files: 0, additions: 0, deletions: 0 });
  });
});
