import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Agent } from '../../../shared/entities/agents';
import type { Project } from '../../../shared/entities/projects';
import type { Worktree } from '../../../shared/entities/worktrees';
import type { Turn } from '../../../shared/turns';
import { commitFiles, git, holdGitFilter, makeRepo } from '../../../test-support/gitRepo';
import { runTurn, SHELL_AGENT_PROFILE, startShellAgent, turnsOf as turnsOfAgent, typeCommand } from '../../../test-support/shellAgent';
import { makeTempDir, removeDir } from '../../../test-support/tempDir';
import { waitFor } from '../../../test-support/waitFor';
import { createCore, type Core } from '../compose';

describe('turns: a checkpoint per turn of a shell agent (real PTY, real git)', () => {
  let dir: string;
  let repo: string;
  let core: Core;
  let project: Project;

  beforeEach(async () => {
    dir = makeTempDir();
    repo = makeRepo(path.join(dir, 'repo'), { 'notes.txt': 'one\n', '.gitignore': '*.log\n' });
    core = createCore({ dataDir: path.join(dir, 'data'), version: 'test', socketPath: '/unused', portBlocksDir: path.join(dir, 'ports') });
    project = await core.api.addProject({ path: repo });
    await core.api.saveAgentProfile({ profile: SHELL_AGENT_PROFILE });
  });
  afterEach(async () => {
    await core.close();
    removeDir(dir);
  });

  const addAgent = async (name: string): Promise<{ agent: Agent; worktree: Worktree }> => {
    const agent = await core.api.createAgent({ projectId: project.id, name, role: '', profileId: 'sh', workspace: { kind: 'new-worktree' } });
    const worktree = (await core.api.getWorkState({ projectId: project.id })).worktrees.find((candidate) => candidate.agentId === agent.id) as Worktree;
    return { agent, worktree };
  };
  const turnsOf = (agent: Agent): Promise<Turn[]> => turnsOfAgent(core, agent);
  const started = (agent: Agent) => startShellAgent(core, agent);
  const runCommand = (agent: Agent, command: string, n: number): Promise<Turn> => runTurn(core, agent, command, n);
  const diffPaths = async (agent: Agent, from: number, to: number | null) => (await core.api.getTurnDiff({ agentId: agent.id, from, to })).files.map((file) => file.path);

  it('checkpoints each command, shows what each turn changed, restores one and undoes it', async () => {
    const { agent, worktree } = await addAgent('builder');
    const [start] = await started(agent);
    expect(start).toMatchObject({ n: 0, kind: 'start', before: null, ref: `refs/drover/checkpoints/${agent.id}/0` });

    const first = await runCommand(agent, "printf 'a\\n' > first.txt", 1);
    expect(first).toMatchObject({ kind: 'turn', prompt: "printf 'a\\n' > first.txt", files: 1, additions: 1, deletions: 0 });
    expect(first.startedAt).not.toBeNull();
    await runCommand(agent, "printf 'two\\n' >> notes.txt && git add notes.txt", 2);
    await runCommand(agent, 'rm first.txt && echo ignored > build.log', 3);

    expect(await diffPaths(agent, 1, 1)).toEqual(['first.txt']);
    expect(await diffPaths(agent, 2, 2)).toEqual(['notes.txt']);
    const third = await core.api.getTurnDiff({ agentId: agent.id, from: 3, to: 3 });
    expect(third.files.map((file) => [file.path, file.status])).toEqual([['first.txt', 'deleted']]);
    expect(await diffPaths(agent, 2, null)).toEqual(['first.txt', 'notes.txt']);
    expect(git(repo, 'show-ref', '--', `refs/drover/checkpoints/${agent.id}/3`)).toContain((await turnsOf(agent))[3]?.commit);

    const restored = await core.api.restoreTurn({ agentId: agent.id, n: 1 });
    // Restoring brings first.txt's line back and takes notes.txt's second line away.
    expect(restored.undo).toMatchObject({ n: 4, kind: 'restore', restoredTo: 1, files: 2, additions: 1, deletions: 1 });
    expect(fs.readFileSync(path.join(worktree.path, 'first.txt'), 'utf8')).toBe('a\n');
    expect(fs.readFileSync(path.join(worktree.path, 'notes.txt'), 'utf8')).toBe('one\n');
    expect(git(worktree.path, '--no-optional-locks', 'status', '--porcelain')).toBe('?? first.txt');
    // Ignored files are not the checkpoints' business.
    expect(fs.existsSync(path.join(worktree.path, 'build.log'))).toBe(true);
    expect(restored.message.body).toContain('restored your worktree to checkpoint 1, turn 1');
    expect(restored.message.body).toContain('kept as checkpoint 4');
    // "Before restoring 1" reads as what undoing the restore brings back: first.txt gone, notes.txt's second line.
    const kept = await core.api.getTurnDiff({ agentId: agent.id, from: 4, to: 4 });
    expect(kept.files.map((file) => [file.path, file.status])).toEqual([
      ['first.txt', 'deleted'],
      ['notes.txt', 'modified'],
    ]);
    expect(kept.files[1]?.patch).toContain('+two');

    await core.api.restoreTurn({ agentId: agent.id, n: 4 });
    expect(fs.existsSync(path.join(worktree.path, 'first.txt'))).toBe(false);
    expect(fs.readFileSync(path.join(worktree.path, 'notes.txt'), 'utf8')).toBe('one\ntwo\n');
    expect(git(worktree.path, '--no-optional-locks', 'status', '--porcelain')).toBe('M  notes.txt');
  });

  it('gives a command typed while the last one still counts as running (its output not quiet yet) a turn of its own, with its own file', async () => {
    // The screen is read once output has been quiet this long: typed sooner, a command finds the last one's turn not ended.
    await core.api.saveAgentProfile({ profile: { ...SHELL_AGENT_PROFILE, id: 'slow-sh', name: 'slow to settle', quietMs: 4_000 } });
    const agent = await core.api.createAgent({ projectId: project.id, name: 'quick', role: '', profileId: 'slow-sh', workspace: { kind: 'new-worktree' } });
    await started(agent);
    const state = async () => (await core.api.getWorkState({ projectId: project.id })).sessions.find((s) => s.agentId === agent.id)?.state;
    await typeCommand(core, agent, "printf 'a\\n' > one.txt && echo one-$((1 + 1))");
    await waitFor(async () => /one-2\n\$$/.test((await core.api.readAgentScreen({ agentId: agent.id })).text.trimEnd()), 'the prompt back after the first command');
    expect(await state()).toBe('busy');
    await typeCommand(core, agent, "printf 'b\\n' > two.txt");

    const second = await waitFor(async () => (await turnsOf(agent)).find((turn) => turn.n === 2), 'the second turn');
    expect(second).toMatchObject({ kind: 'turn', prompt: "printf 'b\\n' > two.txt", files: 1 });
    expect((await turnsOf(agent))[1]).toMatchObject({ n: 1, kind: 'turn', prompt: "printf 'a\\n' > one.txt && echo one-$((1 + 1))", files: 1 });
    expect(await diffPaths(agent, 1, 1)).toEqual(['one.txt']);
    expect(await diffPaths(agent, 2, 2)).toEqual(['two.txt']);
  });

  it('refuses to restore while the agent is busy', async () => {
    const { agent } = await addAgent('sleeper');
    await started(agent);
    await core.api.writeAgentInput({ agentId: agent.id, data: 'sleep 30\r' });
    await waitFor(async () => (await core.api.getWorkState({ projectId: project.id })).sessions.find((s) => s.agentId === agent.id)?.state === 'busy', 'the shell busy');
    await expect(core.api.restoreTurn({ agentId: agent.id, n: 0 })).rejects.toThrow(/sleeper is busy/);
  });

  it('refuses to restore while a task works in the worktree, naming it, until it has ended', async () => {
    const { agent, worktree } = await addAgent('tasker');
    await started(agent);
    await runCommand(agent, "printf 'x\\n' > made.txt", 1);
    // The person's task, started in the agent's worktree: not the agent's, but its files are the same.
    const task = await core.api.createTask({ projectId: project.id, command: 'sleep 30', label: 'slow build', cwd: worktree.path });
    await waitFor(async () => (await core.api.getTask({ taskId: task.id })).state === 'running', 'the task to run');
    await expect(core.api.restoreTurn({ agentId: agent.id, n: 0 })).rejects.toThrow(
      "slow build works in tasker's worktree: restore once it has ended (or cancel it).",
    );
    expect(fs.existsSync(path.join(worktree.path, 'made.txt'))).toBe(true);
    expect((await turnsOf(agent)).map((turn) => turn.n)).toEqual([0, 1]);
    await core.api.cancelTask({ taskId: task.id });
    await waitFor(async () => (await core.api.getTask({ taskId: task.id })).state === 'cancelled', 'the task to end');
    await core.api.restoreTurn({ agentId: agent.id, n: 0 });
    expect(fs.existsSync(path.join(worktree.path, 'made.txt'))).toBe(false);
  });

  it('starts no task in a worktree while a restore rewrites its files, and takes tasks there again once it has ended', async () => {
    // A file whose checkout goes through the person's filter (slow, as git-lfs's can be); the filter waits for the test.
    commitFiles(repo, { '.gitattributes': 'held.dat filter=hold-smudge\n', 'held.dat': 'v0\n' }, 'a file whose checkout a filter does');
    const { agent, worktree } = await addAgent('restoring');
    await started(agent);
    await runCommand(agent, "printf 'v1\\n' > held.dat", 1);
    const hold = holdGitFilter(repo, dir, 'smudge');
    const restoring = core.api.restoreTurn({ agentId: agent.id, n: 0 });
    await waitFor(() => fs.existsSync(hold.started), 'the restore to write held.dat');
    await expect(core.api.createTask({ projectId: project.id, command: 'true', label: 'build', cwd: worktree.path })).rejects.toThrow(
      "restoring's worktree is being restored to checkpoint 0: start the task once that has ended.",
    );
    fs.writeFileSync(hold.gate, '');
    await restoring;
    expect(fs.readFileSync(path.join(worktree.path, 'held.dat'), 'utf8')).toBe('v0\n');
    const task = await core.api.createTask({ projectId: project.id, command: 'true', label: 'build', cwd: worktree.path });
    await waitFor(async () => (await core.api.getTask({ taskId: task.id })).state === 'succeeded', 'the task to run');
  });

  it('refuses a restore that would overwrite ignored files (keeping no checkpoint for it); with them moved away, the restore and its undo lose nothing', async () => {
    const { agent, worktree } = await addAgent('secretive');
    await started(agent);
    await runCommand(agent, 'echo SECRET=old > .env && echo built > build', 1);
    await runCommand(agent, "rm build && mkdir build && echo out > build/out.js && echo SECRET=today > .env && printf '.env\\nbuild/\\n' >> .gitignore", 2);
    const file = (name: string) => fs.readFileSync(path.join(worktree.path, name), 'utf8');
    await expect(core.api.restoreTurn({ agentId: agent.id, n: 1 })).rejects.toThrow(/would overwrite or remove 2 paths git ignores in the worktree now \(\.env, build\/\)/);
    expect(file('.env')).toBe('SECRET=today\n');
    expect(file('build/out.js')).toBe('out\n');
    expect((await turnsOf(agent)).map((turn) => turn.n)).toEqual([0, 1, 2]);

    fs.renameSync(path.join(worktree.path, '.env'), path.join(dir, 'saved.env'));
    fs.renameSync(path.join(worktree.path, 'build'), path.join(dir, 'saved-build'));
    const before = git(worktree.path, 'status', '--porcelain', '--ignored', '--untracked-files=all');
    const restored = await core.api.restoreTurn({ agentId: agent.id, n: 1 });
    expect([file('.env'), file('build')]).toEqual(['SECRET=old\n', 'built\n']);
    await core.api.restoreTurn({ agentId: agent.id, n: restored.undo.n });
    expect(git(worktree.path, 'status', '--porcelain', '--ignored', '--untracked-files=all')).toBe(before);
    expect(fs.existsSync(path.join(worktree.path, '.env'))).toBe(false);
  });

  it('prunes to the setting, keeping a checkpoint that alone holds commits a restore took off the branch', async () => {
    const { agent, worktree } = await addAgent('committer');
    await started(agent);
    await runCommand(agent, "printf 'x\\n' > x.txt && git add x.txt && git commit -qm x", 1);
    await runCommand(agent, "printf 'y\\n' > y.txt && git add y.txt && git commit -qm y", 2);
    const commitY = git(worktree.path, 'rev-parse', 'HEAD');
    // Back to the start: the branch loses both commits; checkpoint 3 (before the restore) alone holds them.
    await core.api.restoreTurn({ agentId: agent.id, n: 0 });
    expect(git(worktree.path, 'rev-parse', 'HEAD')).toBe(worktree.baseCommit);
    await core.api.updateProjectSettings({ projectId: project.id, settings: { checkpointTurnsKept: 1 } });
    await runCommand(agent, "printf 'z\\n' > z.txt", 4);
    await waitFor(async () => (await turnsOf(agent)).map((turn) => turn.n).join() === '3,4', 'the older checkpoints pruned');
    // The start's ref stays while turn 4, which began from the state restored, is kept.
    expect(git(repo, 'for-each-ref', '--format=%(refname)', `refs/drover/checkpoints/${agent.id}/`).split('\n')).toEqual(
      [0, 3, 4].map((n) => `refs/drover/checkpoints/${agent.id}/${n}`),
    );
    expect(await diffPaths(agent, 4, 4)).toEqual(['z.txt']);
    expect(git(repo, 'rev-list', `refs/drover/checkpoints/${agent.id}/3`)).toContain(commitY);
    const usage = await core.api.getCheckpointUsage({ projectId: project.id });
    expect(usage.checkpoints).toBe(2);
    expect(usage.bytes).toBeGreaterThan(0);

    // Archived: its branch stays, its checkpoints go but for the one that alone holds commits.
    const removed = await core.api.removeAgent({ agentId: agent.id, keepBranch: true });
    expect(removed.keptBranch).toBe(worktree.branch);
    await waitFor(() => git(repo, 'for-each-ref', '--format=%(refname)', `refs/drover/checkpoints/${agent.id}/`) === `refs/drover/checkpoints/${agent.id}/3`, 'the checkpoints removed');
  });

  it('sends the collected comments as one inbox message with file, lines, quote and comment', async () => {
    const { agent } = await addAgent('reviewed');
    const first = await core.api.addDiffComment({ agentId: agent.id, path: 'src/app.ts', side: 'new', startLine: 4, endLine: 6, quoted: 'const a = 1;\nconst b = 2;\nconst c = 3;\n', body: 'Use one object.' });
    await core.api.addDiffComment({ agentId: agent.id, path: 'README.md', side: 'old', startLine: 2, endLine: 2, quoted: 'old words', body: 'Keep this line.' });
    const sent = await core.api.sendDiffComments({ agentId: agent.id });
    expect(sent.message.body).toBe(
      'Review comments on your changes (2 comments):\n\n' +
        '1. src/app.ts, lines 4–6:\n> const a = 1;\n> const b = 2;\n> const c = 3;\nUse one object.\n\n' +
        '2. README.md, line 2 (old):\n> old words\nKeep this line.\n\n' +
        'Please address each of them, then say what you changed.',
    );
    expect(sent.comments.map((comment) => comment.messageId)).toEqual([sent.message.id, sent.message.id]);
    const listed = await core.api.listDiffComments({ agentId: agent.id });
    expect(listed.find((comment) => comment.id === first.id)?.sentAt).not.toBeNull();
    await expect(core.api.sendDiffComments({ agentId: agent.id })).rejects.toThrow(/no comments/);
    const inbox = await core.api.listInbox({ agentId: agent.id, unreadOnly: false });
    expect(inbox.messages.map((message) => message.id)).toEqual([sent.message.id]);
  });

  it('compares two agents: what each changed, and how their worktrees differ', async () => {
    const alpha = await addAgent('alpha');
    const beta = await addAgent('beta');
    fs.writeFileSync(path.join(alpha.worktree.path, 'notes.txt'), 'one\nalpha\n');
    fs.writeFileSync(path.join(beta.worktree.path, 'notes.txt'), 'one\nbeta\n');
    fs.writeFileSync(path.join(beta.worktree.path, 'extra.txt'), 'only beta\n');
    const changes = await core.api.compareAgents({ agentIds: [alpha.agent.id, beta.agent.id] });
    expect(changes.map((entry) => entry.files.map((file) => file.path))).toEqual([['notes.txt'], ['extra.txt', 'notes.txt']]);
    const diff = await core.api.diffAgents({ fromAgentId: alpha.agent.id, toAgentId: beta.agent.id });
    expect(diff.files.map((file) => file.path)).toEqual(['extra.txt', 'notes.txt']);
    expect(diff.files[1]?.patch).toContain('-alpha\n+beta');
  });
});
