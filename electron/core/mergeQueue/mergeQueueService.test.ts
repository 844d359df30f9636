import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Agent } from '../../../shared/entities/agents';
import type { MergeQueueEntry } from '../../../shared/entities/mergeQueue';
import type { Project } from '../../../shared/entities/projects';
import type { AgentWorkspaceRequest, Worktree } from '../../../shared/entities/worktrees';
import { commitFiles, git, makeRepo, writeFiles } from '../../../test-support/gitRepo';
import { makeTempDir, removeDir } from '../../../test-support/tempDir';
import { waitFor } from '../../../test-support/waitFor';
import { createCore, type Core } from '../compose';

describe('Merge queue (real git, real SQLite, real tasks)', () => {
  let dir: string;
  let repo: string;
  let core: Core;
  let project: Project;

  const start = () => {
    core = createCore({ dataDir: path.join(dir, 'data'), version: 'test', socketPath: '/unused', portBlocksDir: path.join(dir, 'ports') });
    core.startWork();
  };
  const addAgent = (name: string, workspace: AgentWorkspaceRequest = { kind: 'new-worktree' }) =>
    core.api.createAgent({ projectId: project.id, name, role: '', profileId: 'shell', workspace });
  const worktreeOf = async (agent: Agent): Promise<Worktree> => {
    const found = (await core.api.getWorkState({ projectId: project.id })).worktrees.find((worktree) => worktree.agentId === agent.id);
    if (!found) throw new Error(`${agent.name} has no worktree`);
    return found;
  };
  /** An agent in its own worktree with `files` committed on its branch. */
  const agentWith = async (name: string, files: Record<string, string>): Promise<{ agent: Agent; worktree: Worktree }> => {
    const agent = await addAgent(name);
    const worktree = await worktreeOf(agent);
    commitFiles(worktree.path, files, `${name}'s change`);
    return { agent, worktree };
  };
  const entries = async (): Promise<MergeQueueEntry[]> => core.api.listMergeQueue({ projectId: project.id });
  const settled = (agent: Agent) =>
    waitFor(async () => (await entries()).find((entry) => entry.agentId === agent.id && (entry.state === 'merged' || entry.state === 'handed-back')), `${agent.name}'s entry to settle`, 30_000);
  const notes = async (agent: Agent) => (await core.api.listInbox({ agentId: agent.id, unreadOnly: false })).messages.filter((message) => message.kind === 'note').map((message) => message.body);
  const setCheck = (mergeCheckCommand: string) => core.api.updateProjectSettings({ projectId: project.id, settings: { mergeCheckCommand } });
  const mainSubjects = () => git(repo, 'log', '--format=%s', 'main').split('\n');

  beforeEach(async () => {
    dir = makeTempDir();
    repo = makeRepo(path.join(dir, 'repo'), { 'shared.txt': 'line one\nline two\n', 'other.txt': 'other\n' });
    start();
    project = await core.api.addProject({ path: repo });
  });
  afterEach(async () => {
    await core.close();
    removeDir(dir);
  });

  it('lands queued branches on main in order, each checked, and hands a conflicting one back naming its files', async () => {
    const checks = path.join(dir, 'checks.log');
    await setCheck(`git log -1 --format=%s >> '${checks}'`);
    const alpha = await agentWith('alpha', { 'shared.txt': 'line one by alpha\nline two\n' });
    const gamma = await agentWith('gamma', { 'other.txt': 'other by gamma\n' });
    const beta = await agentWith('beta', { 'shared.txt': 'line one by beta\nline two\n' });

    for (const { agent } of [alpha, gamma, beta]) await core.api.queueForMerge({ agentId: agent.id });
    expect((await settled(alpha.agent)).state).toBe('merged');
    expect((await settled(gamma.agent)).state).toBe('merged');
    const handedBack = await settled(beta.agent);
    expect(handedBack).toMatchObject({ state: 'handed-back', reason: 'conflicts with main in shared.txt' });

    expect(mainSubjects().slice(0, 3)).toEqual(["gamma's change", "alpha's change", 'first commit']);
    // Each landed branch was checked after its rebase on the main it landed on; the conflicting one never was.
    expect(fs.readFileSync(checks, 'utf8')).toBe("alpha's change\ngamma's change\n");
    expect(git(repo, 'rev-parse', 'main')).toBe((await entries()).find((entry) => entry.agentId === gamma.agent.id)?.mergedCommit);
    expect(fs.readFileSync(path.join(repo, 'other.txt'), 'utf8')).toBe('other by gamma\n');
    expect((await notes(beta.agent)).join('\n')).toMatch(/conflicts in 1 file: shared\.txt/);
    const checkTasks = (await core.api.listTasks({ projectId: project.id })).tasks.filter((task) => task.label?.startsWith('merge check of'));
    expect(checkTasks.map((task) => [task.label, task.state, task.cwd])).toEqual([
      ['merge check of gamma', 'succeeded', gamma.worktree.path],
      ['merge check of alpha', 'succeeded', alpha.worktree.path],
    ]);
  });

  it("hands an entry back with the check's last lines when the check fails, or its command does not exist, and goes on", async () => {
    await setCheck(`echo "first line"; echo "3 tests failed in cart.test.ts"; exit 3`);
    const alpha = await agentWith('alpha', { 'shared.txt': 'line one by alpha\nline two\n' });
    const before = git(repo, 'rev-parse', 'main');
    await core.api.queueForMerge({ agentId: alpha.agent.id });
    expect(await settled(alpha.agent)).toMatchObject({ state: 'handed-back', reason: 'the check failed: exit code 3' });
    expect(git(repo, 'rev-parse', 'main')).toBe(before);
    expect((await notes(alpha.agent)).join('\n')).toMatch(/its check failed[\s\S]*3 tests failed in cart\.test\.ts/);

    await setCheck('no-such-check-command --all');
    const gamma = await agentWith('gamma', { 'other.txt': 'other by gamma\n' });
    await core.api.queueForMerge({ agentId: gamma.agent.id });
    expect(await settled(gamma.agent)).toMatchObject({ state: 'handed-back', reason: 'the check failed: exit code 127' });
    expect((await notes(gamma.agent)).join('\n')).toMatch(/no-such-check-command.*not found/);

    // Queued again with no check command, it lands.
    await setCheck('');
    await core.api.queueForMerge({ agentId: gamma.agent.id });
    expect(await settled(gamma.agent)).toMatchObject({ state: 'merged', reason: null });
    expect(git(repo, 'show', 'main:other.txt')).toBe('other by gamma');
  });

  it('rebases and checks again when main moves during the check, and lands only what was checked', async () => {
    const checks = path.join(dir, 'checks.log');
    // The first check moves main under it (a person's commit); the second finds it still.
    await setCheck(`echo ran >> '${checks}'; if [ "$(wc -l < '${checks}')" -eq 1 ]; then git -C '${repo}' commit --quiet --allow-empty -m 'moved meanwhile'; fi`);
    const alpha = await agentWith('alpha', { 'shared.txt': 'line one by alpha\nline two\n' });
    await core.api.queueForMerge({ agentId: alpha.agent.id });
    expect((await settled(alpha.agent)).state).toBe('merged');
    expect(fs.readFileSync(checks, 'utf8')).toBe('ran\nran\n');
    expect(mainSubjects().slice(0, 3)).toEqual(["alpha's change", 'moved meanwhile', 'first commit']);
  });

  it('moves a waiting entry ahead of others, and refuses to move one that no longer waits', async () => {
    await core.api.updateProjectSettings({ projectId: project.id, settings: { mergeQueuePaused: true } });
    const [alpha, beta, gamma] = [
      await agentWith('alpha', { 'a.txt': 'a\n' }),
      await agentWith('beta', { 'b.txt': 'b\n' }),
      await agentWith('gamma', { 'c.txt': 'c\n' }),
    ];
    for (const { agent } of [alpha, beta, gamma]) await core.api.queueForMerge({ agentId: agent.id });
    const moved = await core.api.moveInMergeQueue({ agentId: gamma.agent.id, place: 1 });
    expect(moved.map((entry) => entry.agentName)).toEqual(['gamma', 'alpha', 'beta']);
    expect((await core.api.moveInMergeQueue({ agentId: gamma.agent.id, place: 9 })).map((entry) => entry.agentName)).toEqual(['alpha', 'beta', 'gamma']);
    await core.api.moveInMergeQueue({ agentId: beta.agent.id, place: 1 });

    await core.api.updateProjectSettings({ projectId: project.id, settings: { mergeQueuePaused: false } });
    for (const { agent } of [alpha, beta, gamma]) expect((await settled(agent)).state).toBe('merged');
    expect(mainSubjects()).toEqual(["gamma's change", "alpha's change", "beta's change", 'first commit']);
    await expect(core.api.moveInMergeQueue({ agentId: beta.agent.id, place: 1 })).rejects.toThrow(/beta's branch is merged, not waiting: only a waiting entry moves/);
  });

  it('refuses bad input with a clear message', async () => {
    const inFolder = await addAgent('folder', { kind: 'project-folder' });
    await expect(core.api.queueForMerge({ agentId: inFolder.id })).rejects.toThrow(/folder works in the project folder, not in a worktree of its own/);
    const idle = await addAgent('idle');
    await expect(core.api.queueForMerge({ agentId: idle.id })).rejects.toThrow(/Nothing to merge: .* has no commits that main lacks/);
    await expect(core.api.removeFromMergeQueue({ agentId: idle.id })).rejects.toThrow(/idle is not in the merge queue/);

    await setCheck(`while [ ! -f '${path.join(dir, 'go')}' ]; do sleep 0.05; done`);
    const alpha = await agentWith('alpha', { 'shared.txt': 'by alpha\n' });
    await core.api.queueForMerge({ agentId: alpha.agent.id });
    await expect(core.api.queueForMerge({ agentId: alpha.agent.id })).rejects.toThrow(/alpha is in the merge queue of main already/);
    // Taken out mid-check: its check is cancelled and nothing lands.
    const checking = await waitFor(async () => (await entries()).find((entry) => entry.state === 'checking'), 'the check to start');
    await core.api.removeFromMergeQueue({ agentId: alpha.agent.id });
    await waitFor(async () => (await core.api.getTask({ taskId: checking.checkTaskId ?? '' })).state === 'cancelled', 'the check to be cancelled');
    expect(await entries()).toEqual([]);
    expect(mainSubjects()).toEqual(['first commit']);

    const feature = await agentWith('feature', { 'other.txt': 'feature\n' });
    git(repo, 'checkout', '--quiet', '-b', 'trunk');
    git(repo, 'branch', '-D', 'main');
    await expect(core.api.queueForMerge({ agentId: feature.agent.id })).rejects.toThrow(/The parent branch main no longer exists/);
  });

  it('hands back a branch with uncommitted files, or whose parent branch went while it waited', async () => {
    await setCheck(`while [ ! -f '${path.join(dir, 'go')}' ]; do sleep 0.05; done`);
    const alpha = await agentWith('alpha', { 'shared.txt': 'by alpha\n' });
    const gamma = await agentWith('gamma', { 'other.txt': 'by gamma\n' });
    await core.api.queueForMerge({ agentId: alpha.agent.id });
    await core.api.queueForMerge({ agentId: gamma.agent.id });
    writeFiles(gamma.worktree.path, { 'notes.txt': 'not committed\n' });
    await waitFor(async () => (await entries()).find((entry) => entry.state === 'checking'), 'the check to start');
    fs.writeFileSync(path.join(dir, 'go'), '');
    expect((await settled(alpha.agent)).state).toBe('merged');
    expect(await settled(gamma.agent)).toMatchObject({ state: 'handed-back', reason: expect.stringMatching(/1 file in gamma's worktree is not committed/) });
    expect(git(repo, 'show', 'main:other.txt')).toBe('other');

    const late = await agentWith('late', { 'late.txt': 'late\n' });
    fs.rmSync(path.join(dir, 'go'));
    const beta = await agentWith('beta', { 'beta.txt': 'beta\n' });
    await core.api.queueForMerge({ agentId: beta.agent.id });
    await core.api.queueForMerge({ agentId: late.agent.id });
    await waitFor(async () => (await entries()).find((entry) => entry.agentId === beta.agent.id && entry.state === 'checking'), "beta's check to start");
    git(repo, 'checkout', '--quiet', '-b', 'trunk');
    git(repo, 'branch', '-D', 'main');
    fs.writeFileSync(path.join(dir, 'go'), '');
    expect(await settled(beta.agent)).toMatchObject({ state: 'handed-back', reason: expect.stringMatching(/The parent branch main no longer exists/) });
    expect(await settled(late.agent)).toMatchObject({ state: 'handed-back', reason: expect.stringMatching(/The parent branch main no longer exists/) });
  });

  it('checks an entry caught mid-check again after a host restart, and merges it once', async () => {
    const checks = path.join(dir, 'checks.log');
    const go = path.join(dir, 'go');
    await setCheck(`echo ran >> '${checks}'; while [ ! -f '${go}' ]; do sleep 0.05; done`);
    const alpha = await agentWith('alpha', { 'shared.txt': 'by alpha\n' });
    const gamma = await agentWith('gamma', { 'other.txt': 'by gamma\n' });
    await core.api.queueForMerge({ agentId: alpha.agent.id });
    await core.api.queueForMerge({ agentId: gamma.agent.id });
    await waitFor(() => fs.existsSync(checks), 'the first check to run');
    const cutShort = (await entries()).find((entry) => entry.agentId === alpha.agent.id)?.checkTaskId ?? '';

    await core.close();
    start();
    expect((await core.api.getTask({ taskId: cutShort })).state).toBe('interrupted');
    await waitFor(() => fs.readFileSync(checks, 'utf8') === 'ran\nran\n', 'the check to run again');
    fs.writeFileSync(go, '');
    expect((await settled(alpha.agent)).state).toBe('merged');
    expect((await settled(gamma.agent)).state).toBe('merged');
    expect(mainSubjects()).toEqual(["gamma's change", "alpha's change", 'first commit']);
  });
});
