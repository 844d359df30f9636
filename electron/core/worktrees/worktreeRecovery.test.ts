import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { branchesStartingWith, commitFiles, git, makeRepo } from '../../../test-support/gitRepo';
import { makeTempDir, removeDir } from '../../../test-support/tempDir';
import { waitFor } from '../../../test-support/waitFor';
import { openWorktreeCore, type WorktreeCore } from '../../../test-support/worktreeCore';

describe('worktrees at boot', () => {
  let dir: string;
  let repo: string;
  let drover: WorktreeCore;

  beforeEach(async () => {
    dir = makeTempDir();
    repo = makeRepo(path.join(dir, 'repo'), { 'shared.txt': 'one\n' });
    drover = await openWorktreeCore(dir, repo);
  });
  afterEach(async () => {
    await drover.close();
    removeDir(dir);
  });

  it('shows a worktree whose folder lost its .git as missing, and deletes nothing in it', async () => {
    const agent = await drover.addAgent('halved');
    const { path: tree, branch } = await drover.worktreeOf(agent);
    fs.writeFileSync(path.join(tree, 'notes.txt'), 'not in git\n');
    await drover.close();
    fs.rmSync(path.join(tree, '.git'));
    await drover.restart();
    expect(await drover.worktreeOf(agent)).toMatchObject({ state: 'missing', portBase: null });
    expect(fs.readFileSync(path.join(tree, 'notes.txt'), 'utf8')).toBe('not in git\n');
    expect(git(repo, 'worktree', 'list', '--porcelain')).not.toContain(tree);
    expect(branchesStartingWith(repo, branch)).toEqual([branch]);
    await expect(drover.core.api.startAgent({ agentId: agent.id, resume: false })).rejects.toThrow(/is no longer a git checkout \(its branch drover\/halved-\w+ is kept\)/);
  });

  it('leaves alone a rebase Drover did not start', async () => {
    const agent = await drover.addAgent('rebasing');
    const { path: tree } = await drover.worktreeOf(agent);
    commitFiles(tree, { 'shared.txt': 'agent\n' }, 'agent edit');
    commitFiles(repo, { 'shared.txt': 'main\n' }, 'main edit');
    expect(() => git(tree, 'rebase', 'main')).toThrow(/conflict/i);
    const rebaseState = path.join(git(tree, 'rev-parse', '--absolute-git-dir'), 'rebase-merge');
    expect(fs.existsSync(rebaseState)).toBe(true);
    await drover.restart();
    expect(fs.existsSync(rebaseState)).toBe(true);
    expect((await drover.worktreeOf(agent)).state).toBe('ready');
  });

  it('removes a lock only once no live git works in the repository and no process holds it open', async () => {
    const agent = await drover.addAgent('locked');
    const { path: tree } = await drover.worktreeOf(agent);
    const lock = path.join(git(tree, 'rev-parse', '--absolute-git-dir'), 'index.lock');
    const started: ChildProcess[] = [];
    const run = (command: string, args: string[], cwd: string) => {
      const child = spawn(command, args, { cwd, stdio: ['pipe', 'ignore', 'ignore'] });
      started.push(child);
      return child;
    };
    const stop = async (child: ChildProcess) => {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGKILL');
      await exited;
    };
    try {
      fs.writeFileSync(lock, '');
      // A git at work in the main checkout (waiting on its input, as a slow command would).
      const working = run('git', ['cat-file', '--batch'], repo);
      await waitFor(() => fs.readFileSync(`/proc/${working.pid}/comm`, 'utf8').trim() === 'git', 'git to run');
      await drover.restart();
      expect(fs.existsSync(lock)).toBe(true);
      expect(drover.logged().join('\n')).toContain(`git (pid ${working.pid}) is at work in ${repo}`);

      await stop(working);
      // Any process that has the lock open (a hook git started, say) keeps it too.
      const holding = run('sh', ['-c', `exec 3<'${lock}'; exec sleep 60`], dir);
      await waitFor(() => fs.readdirSync(`/proc/${holding.pid}/fd`).some((fd) => fs.readlinkSync(`/proc/${holding.pid}/fd/${fd}`) === lock), 'the lock to be held open');
      await drover.restart();
      expect(fs.existsSync(lock)).toBe(true);
      expect(drover.logged().join('\n')).toContain(`left ${lock} in place: process ${holding.pid} holds it open`);

      await stop(holding);
      await drover.restart();
      expect(fs.existsSync(lock)).toBe(false);
      expect(drover.logged().join('\n')).toContain(`removed a stale ${lock}`);
      expect(git(tree, 'status', '--porcelain')).toBe('');
    } finally {
      for (const child of started) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
  });

  it("takes the parent checkout's git dir for a merge cut short from the repository's records: a .git pointed at another repository cannot make boot remove its locks", async () => {
    const parent = await drover.addAgent('parent');
    const parentTree = await drover.worktreeOf(parent);
    const child = await drover.addAgent('child', { kind: 'new-worktree', base: parentTree.branch });
    const childTree = await drover.worktreeOf(child);
    commitFiles(childTree.path, { 'child.txt': 'work\n' }, "the child's work");
    // Another repository of the person's, where a git of theirs holds a lock right now.
    const elsewhere = makeRepo(path.join(dir, 'elsewhere'), { 'a.txt': 'a\n' });
    const theirLock = path.join(elsewhere, '.git', 'index.lock');
    fs.writeFileSync(theirLock, '');
    // The parent's agent points its worktree's .git there; a merge into its branch was under way when Drover stopped.
    const recordedLock = path.join(git(parentTree.path, 'rev-parse', '--absolute-git-dir'), 'index.lock');
    fs.writeFileSync(path.join(parentTree.path, '.git'), `gitdir: ${path.join(elsewhere, '.git')}\n`);
    fs.writeFileSync(recordedLock, '');
    await drover.restart((stateFile) => {
      const db = new Database(stateFile);
      const tips = { branchTip: git(repo, 'rev-parse', childTree.branch), onto: git(repo, 'rev-parse', parentTree.branch) };
      db.prepare("UPDATE worktrees SET operation = 'merging', operation_branch_tip = @branchTip, operation_onto = @onto WHERE agent_id = @agentId").run({ agentId: child.id, ...tips });
      db.close();
    });
    expect(fs.existsSync(theirLock)).toBe(true);
    expect(fs.existsSync(recordedLock)).toBe(false);
    expect(drover.logged().join('\n')).toContain(`removed a stale ${recordedLock}`);
  });
});
