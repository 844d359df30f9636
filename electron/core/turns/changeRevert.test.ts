import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TURN_METHODS } from '../../../shared/contract/turns';
import { splitHunks } from '../../../shared/diffHunks';
import type { Agent } from '../../../shared/entities/agents';
import type { Project } from '../../../shared/entities/projects';
import type { Worktree, WorktreeDiffFile } from '../../../shared/entities/worktrees';
import { git, makeRepo } from '../../../test-support/gitRepo';
import { SHELL_AGENT_PROFILE, startShellAgent } from '../../../test-support/shellAgent';
import { waitFor } from '../../../test-support/waitFor';
import { makeTempDir, removeDir } from '../../../test-support/tempDir';
import { createCore, type Core } from '../compose';

const lines = (count: number, changed: Record<number, string> = {}) =>
  Array.from({ length: count }, (_, index) => changed[index + 1] ?? `line ${index + 1}`).join('\n') + '\n';

describe('reverting a hunk or a file of an agent’s change (real git)', () => {
  let dir: string;
  let core: Core;
  let project: Project;
  let agent: Agent;
  let worktree: Worktree;

  beforeEach(async () => {
    dir = makeTempDir();
    const repo = makeRepo(path.join(dir, 'repo'), { 'notes.txt': lines(30), 'gone.txt': 'keep me\n', 'other.txt': 'other\n' });
    core = createCore({ dataDir: path.join(dir, 'data'), version: 'test', socketPath: '/unused', portBlocksDir: path.join(dir, 'ports') });
    project = await core.api.addProject({ path: repo });
    await core.api.saveAgentProfile({ profile: SHELL_AGENT_PROFILE });
    agent = await core.api.createAgent({ projectId: project.id, name: 'builder', role: '', profileId: 'sh', workspace: { kind: 'new-worktree' } });
    worktree = (await core.api.getWorkState({ projectId: project.id })).worktrees.find((candidate) => candidate.agentId === agent.id) as Worktree;
  });
  afterEach(async () => {
    await core.close();
    removeDir(dir);
  });

  const file = (name: string) => path.join(worktree.path, name);
  const read = (name: string) => fs.readFileSync(file(name), 'utf8');
  const shown = async (name: string): Promise<{ base: string; file: WorktreeDiffFile }> => {
    const diff = await core.api.getWorktreeDiff({ agentId: agent.id });
    const found = diff.files.find((candidate) => candidate.path === name);
    if (!found) throw new Error(`${name} is not in the diff`);
    return { base: diff.base, file: found };
  };
  const revertHunk = async (name: string, index: number) => {
    const { base, file: changed } = await shown(name);
    const hunk = splitHunks(changed.patch ?? '').hunks[index] as string;
    return core.api.revertChange({ agentId: agent.id, base, path: name, oldPath: null, target: { kind: 'hunk', hunk } });
  };
  const revertFile = async (name: string) => {
    const { base, file: changed } = await shown(name);
    return core.api.revertChange({ agentId: agent.id, base, path: name, oldPath: changed.oldPath, target: { kind: 'file', patch: changed.patch ?? '' } });
  };

  it('reverts one hunk of a committed and edited file, keeps the state before as a checkpoint, and restoring it puts the hunk back', async () => {
    fs.writeFileSync(file('notes.txt'), lines(30, { 2: 'agent two' }));
    git(worktree.path, 'commit', '--quiet', '-am', 'the agent edits line 2');
    fs.writeFileSync(file('notes.txt'), lines(30, { 2: 'agent two', 27: 'agent twenty-seven' }));

    const reverted = await revertHunk('notes.txt', 0);

    expect(read('notes.txt')).toBe(lines(30, { 27: 'agent twenty-seven' }));
    expect(reverted.undo).toMatchObject({ n: 0, kind: 'revert', prompt: 'the hunk at line 2 of notes.txt', files: 1, additions: 1, deletions: 1 });
    expect(reverted.message.body).toContain('A person reverted the hunk at line 2 of notes.txt in your worktree');
    expect(git(worktree.path, 'rev-parse', `refs/drover/checkpoints/${agent.id}/0`)).toBe(reverted.undo.commit);
    // The index and HEAD are left alone: the revert is a change of the worktree's files.
    expect(git(worktree.path, 'log', '-1', '--format=%s')).toBe('the agent edits line 2');

    const undone = await core.api.restoreTurn({ agentId: agent.id, n: reverted.undo.n });
    expect(undone.undo).toMatchObject({ kind: 'restore', restoredTo: 0 });
    expect(read('notes.txt')).toBe(lines(30, { 2: 'agent two', 27: 'agent twenty-seven' }));
  });

  it('reverts a whole file: an edited one goes back to the base, a new one goes, a deleted one comes back', async () => {
    fs.writeFileSync(file('notes.txt'), lines(30, { 2: 'agent two', 27: 'agent twenty-seven' }));
    fs.writeFileSync(file('new.txt'), 'made by the agent\n');
    fs.rmSync(file('gone.txt'));

    await revertFile('notes.txt');
    expect(read('notes.txt')).toBe(lines(30));
    const forNew = await revertFile('new.txt');
    expect(fs.existsSync(file('new.txt'))).toBe(false);
    // The revert's checkpoint reads as what undoing it brings back: new.txt, added.
    expect(forNew.undo).toMatchObject({ n: 1, kind: 'revert', prompt: 'new.txt', files: 1, additions: 1, deletions: 0 });
    const undoneByRestore = await core.api.getTurnDiff({ agentId: agent.id, from: forNew.undo.n, to: forNew.undo.n });
    expect(undoneByRestore.files.map((changed) => [changed.path, changed.status])).toEqual([['new.txt', 'added']]);
    expect(undoneByRestore).toMatchObject({ additions: 1, deletions: 0 });
    await revertFile('gone.txt');
    expect(read('gone.txt')).toBe('keep me\n');

    expect((await core.api.getWorktreeDiff({ agentId: agent.id })).files).toEqual([]);
    await core.api.restoreTurn({ agentId: agent.id, n: forNew.undo.n });
    expect(read('new.txt')).toBe('made by the agent\n');
  });

  it('reverts the one hunk of a new file by removing it', async () => {
    fs.writeFileSync(file('new.txt'), 'made by the agent\n');
    await revertHunk('new.txt', 0);
    expect(fs.existsSync(file('new.txt'))).toBe(false);
  });

  it('refuses a hunk that no longer reads as shown, changing nothing and keeping no checkpoint', async () => {
    fs.writeFileSync(file('notes.txt'), lines(30, { 27: 'agent twenty-seven' }));
    const { base, file: changed } = await shown('notes.txt');
    const hunk = splitHunks(changed.patch ?? '').hunks[0] as string;
    // The agent's file moves on after the diff was shown: a line above the hunk shifts it.
    fs.writeFileSync(file('notes.txt'), `new first line\n${lines(30, { 27: 'agent twenty-seven' })}`);

    await expect(core.api.revertChange({ agentId: agent.id, base, path: 'notes.txt', oldPath: null, target: { kind: 'hunk', hunk } })).rejects.toThrow(
      'notes.txt changed since the diff was shown: that hunk is no longer there as shown. Nothing was reverted; look at the diff again.',
    );
    await expect(core.api.revertChange({ agentId: agent.id, base, path: 'notes.txt', oldPath: null, target: { kind: 'file', patch: changed.patch ?? '' } })).rejects.toThrow(
      'notes.txt changed since the diff was shown.',
    );
    expect(read('notes.txt')).toBe(`new first line\n${lines(30, { 27: 'agent twenty-seven' })}`);
    expect((await core.api.listTurns({ agentId: agent.id })).turns).toEqual([]);
    expect(git(worktree.path, 'for-each-ref', `refs/drover/checkpoints/${agent.id}/`)).toBe('');
  });

  it('refuses a whole binary file whose contents changed since the diff was shown', async () => {
    fs.writeFileSync(file('image.bin'), Buffer.from([0, 1, 2, 3]));
    git(worktree.path, 'add', 'image.bin');
    git(worktree.path, 'commit', '--quiet', '-m', 'the agent adds a binary file');
    const { base, file: changed } = await shown('image.bin');
    fs.writeFileSync(file('image.bin'), Buffer.from([0, 9, 9, 9]));
    await expect(core.api.revertChange({ agentId: agent.id, base, path: 'image.bin', oldPath: null, target: { kind: 'file', patch: changed.patch ?? '' } })).rejects.toThrow(
      'image.bin changed since the diff was shown.',
    );
    expect(fs.readFileSync(file('image.bin'))).toEqual(Buffer.from([0, 9, 9, 9]));
    await revertFile('image.bin');
    expect(fs.existsSync(file('image.bin'))).toBe(false);
  });

  it('refuses to revert while the agent is busy, in the words the changes view shows', async () => {
    fs.writeFileSync(file('new.txt'), 'made by the agent\n');
    await startShellAgent(core, agent);
    await core.api.writeAgentInput({ agentId: agent.id, data: 'sleep 30\r' });
    await waitFor(async () => (await core.api.getWorkState({ projectId: project.id })).sessions.find((s) => s.agentId === agent.id)?.state === 'busy', 'the shell busy');
    await expect(revertFile('new.txt')).rejects.toThrow('builder is busy: revert once its turn has ended (or stop it first).');
    expect(fs.existsSync(file('new.txt'))).toBe(true);
  });

  it('refuses a path outside the worktree, at the contract and in the host', async () => {
    fs.writeFileSync(path.join(dir, 'outside.txt'), 'not the agent’s\n');
    fs.writeFileSync(file('notes.txt'), lines(30, { 2: 'agent two' }));
    const { base } = await shown('notes.txt');
    const params = { agentId: agent.id, base, oldPath: null, target: { kind: 'file', patch: '' } } as const;
    for (const outside of ['../outside.txt', '/etc/passwd', 'a/../../outside.txt']) {
      expect(TURN_METHODS.revertChange.params.safeParse({ ...params, path: outside }).success).toBe(false);
    }
    await expect(core.api.revertChange({ ...params, path: '../outside.txt' })).rejects.toThrow('../outside.txt is not a path inside the worktree: nothing was reverted.');
    expect(fs.readFileSync(path.join(dir, 'outside.txt'), 'utf8')).toBe('not the agent’s\n');
  });
});
