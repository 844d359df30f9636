import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Worktree } from '../../../shared/entities/worktrees';
import { startServe, type ServeProcess } from '../../../test-support/droverProcess';
import { commitFiles, git, holdGitFilter, makeRepo, writeFiles, type GitHold } from '../../../test-support/gitRepo';
import { reportFigures } from '../../../test-support/reliabilityFigures';
import { makeTempDir, removeDir } from '../../../test-support/tempDir';
import { waitFor } from '../../../test-support/waitFor';
import { connectToDrover, type SocketClient } from '../../cli/socketClient';
import { socketPathFor } from '../../wire/paths';

/** Files a removal deletes one by one: enough that a kill on the first deletion lands in the middle. */
const BULK_FILES = 1_000;

describe('SIGKILL of the host process group mid-merge and mid-removal leaves no worktree stuck', () => {
  let dir: string;
  let repo: string;
  let dataDir: string;
  let host: ServeProcess | undefined;
  let client: SocketClient | undefined;
  let projectId: string;
  const holds: GitHold[] = [];

  const boot = async (args: string[] = []) => {
    client?.close();
    host = await startServe(['--data-dir', dataDir, ...args], { ...process.env, DROVER_PORT_BLOCKS_DIR: path.join(dir, 'ports') });
    client = await connectToDrover(socketPathFor(dataDir));
  };
  const rpc = () => (client as SocketClient).rpc;
  const worktreeOf = async (agentId: string): Promise<Worktree> => {
    const found = (await rpc().call('getWorkState', { projectId })).worktrees.find((worktree) => worktree.agentId === agentId);
    if (!found) throw new Error(`agent ${agentId} has no worktree`);
    return found;
  };
  /** Kills the host and every git it runs at once, as a crash or an OOM kill of the session would. */
  const killHostGroup = async () => {
    const serve = host as ServeProcess;
    const group = serve.hostPid();
    // Serve would start a new host the moment this one dies; the next boot is the test's to make.
    await serve.stopServe();
    if (serve.hostAlive()) process.kill(-group, 'SIGKILL');
    await waitFor(() => !serve.hostAlive(), 'the host and its git to be killed');
    host = undefined;
  };
  const gitDirOf = (tree: string) => git(tree, 'rev-parse', '--absolute-git-dir');
  const mainState = () => ({ tip: git(repo, 'rev-parse', 'main'), status: git(repo, 'status', '--porcelain') });
  /** A held git is killed with the host; should one outlive it, the gate lets it finish. */
  const release = (hold: GitHold) => fs.writeFileSync(hold.gate, '');

  beforeEach(async () => {
    dir = makeTempDir();
    dataDir = path.join(dir, 'data');
    const bulk = Object.fromEntries(Array.from({ length: BULK_FILES }, (_, n) => [`bulk/file-${n}.txt`, `${n}\n`]));
    repo = makeRepo(path.join(dir, 'repo'), { 'readme.md': 'hello\n', 'held.dat': 'v0\n', '.gitattributes': 'held.dat filter=hold-smudge\nwork.dat filter=hold-clean\n', ...bulk });
    await boot(['--project', repo]);
    projectId = (await rpc().call('findProjectByPath', { path: repo })).id;
  });
  afterEach(async () => {
    for (const hold of holds.splice(0)) release(hold);
    client?.close();
    client = undefined;
    await host?.stop();
    removeDir(dir);
  });

  it('mid-rebase: the next boot aborts the rebase Drover started and removes the lock the killed git left; the merge then works', async () => {
    const agent = await rpc().call('createAgent', { projectId, name: 'rebaser', role: '', profileId: 'shell', workspace: { kind: 'new-worktree' } });
    const { path: tree, branch } = await worktreeOf(agent.id);
    commitFiles(tree, { 'held.dat': 'v1\n' }, 'agent changes held.dat');
    commitFiles(tree, { 'feature.txt': 'feature\n' }, 'agent adds a feature');
    commitFiles(repo, { 'later.txt': 'later\n' }, 'main moves on');
    const branchTip = git(repo, 'rev-parse', branch);
    const before = mainState();
    const hold = holdGitFilter(repo, dir, 'smudge');
    holds.push(hold);

    rpc().call('mergeWorktree', { agentId: agent.id, strategy: 'rebase' }).catch(() => {});
    await waitFor(() => fs.existsSync(hold.started), 'the rebase to write held.dat');
    const adminDir = gitDirOf(tree);
    await killHostGroup();
    release(hold);
    // What the crash left: a rebase in progress, holding a lock nobody will release.
    expect(fs.existsSync(path.join(adminDir, 'rebase-merge'))).toBe(true);
    expect(fs.existsSync(path.join(adminDir, 'index.lock'))).toBe(true);

    await boot();
    expect(fs.existsSync(path.join(adminDir, 'rebase-merge'))).toBe(false);
    expect(fs.existsSync(path.join(adminDir, 'index.lock'))).toBe(false);
    expect(host?.hostLog()).toMatch(/aborted the rebase of drover\/rebaser-\w+ that Drover's merge had started/);
    expect(git(tree, 'symbolic-ref', '--short', 'HEAD')).toBe(branch);
    expect(git(repo, 'rev-parse', branch)).toBe(branchTip);
    expect(git(tree, 'status', '--porcelain')).toBe('');
    expect(mainState()).toEqual(before);
    expect((await worktreeOf(agent.id)).state).toBe('ready');

    const merged = await rpc().call('mergeWorktree', { agentId: agent.id, strategy: 'rebase' });
    expect(merged.commits).toBe(2);
    expect(git(repo, 'log', '--format=%s', '-3', 'main')).toBe('agent adds a feature\nagent changes held.dat\nmain moves on');
    expect(git(repo, 'status', '--porcelain')).toBe('');
  }, 60_000);

  it('mid-removal while saving uncommitted work: the next boot removes the stale lock; the work is still there and the removal then works', async () => {
    const agent = await rpc().call('createAgent', { projectId, name: 'saver', role: '', profileId: 'shell', workspace: { kind: 'new-worktree' } });
    const { path: tree, branch } = await worktreeOf(agent.id);
    writeFiles(tree, { 'work.dat': 'unsaved\n', 'readme.md': 'edited\n' });
    const before = mainState();
    const hold = holdGitFilter(repo, dir, 'clean');
    holds.push(hold);

    rpc().call('removeAgent', { agentId: agent.id }).catch(() => {});
    await waitFor(() => fs.existsSync(hold.started), 'git add to stage work.dat');
    const adminDir = gitDirOf(tree);
    await killHostGroup();
    release(hold);
    expect(fs.existsSync(path.join(adminDir, 'index.lock'))).toBe(true);

    await boot();
    expect(fs.existsSync(path.join(adminDir, 'index.lock'))).toBe(false);
    expect(host?.hostLog()).toMatch(/removed a stale .*index\.lock/);
    expect((await worktreeOf(agent.id)).state).toBe('ready');
    expect(fs.readFileSync(path.join(tree, 'work.dat'), 'utf8')).toBe('unsaved\n');
    expect(fs.readFileSync(path.join(tree, 'readme.md'), 'utf8')).toBe('edited\n');
    expect(mainState()).toEqual(before);

    expect(await rpc().call('removeAgent', { agentId: agent.id })).toMatchObject({ keptBranch: branch });
    expect(git(repo, 'show', `${branch}:work.dat`)).toBe('unsaved');
    expect(git(repo, 'show', `${branch}:readme.md`)).toBe('edited');
    expect(mainState()).toEqual(before);
  }, 60_000);

  it('mid-removal while git deletes the folder: the next boot finishes deleting it and shows the worktree missing; the branch and its commits are kept', async () => {
    const agent = await rpc().call('createAgent', { projectId, name: 'deleter', role: '', profileId: 'shell', workspace: { kind: 'new-worktree' } });
    const { path: tree, branch } = await worktreeOf(agent.id);
    const work = commitFiles(tree, { 'feature.txt': 'committed work\n' }, 'agent work');
    const before = mainState();
    const hostGroup = (host as ServeProcess).hostPid();
    // Serve would start a new host the moment this one dies; the next boot is the test's to make.
    await host?.stopServe();

    // The first file git deletes ends the host's group, git with it.
    const watcher = fs.watch(path.join(tree, 'bulk'), () => {
      try {
        process.kill(-hostGroup, 'SIGKILL');
      } catch {
        // already dead
      }
    });
    try {
      rpc().call('removeAgent', { agentId: agent.id }).catch(() => {});
      await waitFor(() => !host?.hostAlive(), 'the host to be killed mid-removal');
    } finally {
      watcher.close();
    }
    await killHostGroup();
    const bulkLeft = path.join(tree, 'bulk');
    const left = fs.existsSync(bulkLeft) ? fs.readdirSync(bulkLeft).length : 0;
    reportFigures('SIGKILL mid-removal', { 'files left': `${left} of ${BULK_FILES}`, '.git left': fs.existsSync(path.join(tree, '.git')) ? 'yes' : 'no' });
    // Killed in the middle: some files are gone, not all.
    expect(left).toBeGreaterThan(0);
    expect(left).toBeLessThan(BULK_FILES);

    await boot();
    expect(await worktreeOf(agent.id)).toMatchObject({ state: 'missing', portBase: null });
    expect(fs.existsSync(tree)).toBe(false);
    expect(host?.hostLog()).toMatch(/finished removing .*deleter-\w+/);
    expect(git(repo, 'worktree', 'list', '--porcelain')).not.toContain(tree);
    expect(git(repo, 'rev-parse', branch)).toBe(work);
    expect(mainState()).toEqual(before);
    await expect(rpc().call('startAgent', { agentId: agent.id, resume: false })).rejects.toThrow(/is gone \(its branch drover\/deleter-\w+ is kept\)/);

    expect(await rpc().call('removeAgent', { agentId: agent.id })).toMatchObject({ keptBranch: branch });
    expect(git(repo, 'rev-parse', branch)).toBe(work);
  }, 60_000);
});
