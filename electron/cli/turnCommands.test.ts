import fs from 'node:fs';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Agent } from '../../shared/entities/agents';
import type { Worktree } from '../../shared/entities/worktrees';
import type { Turn } from '../../shared/turns';
import { cliProjectPerTest } from '../../test-support/cliProjectPerTest';
import { waitFor } from '../../test-support/waitFor';

describe('drover turns', () => {
  const drover = cliProjectPerTest({ 'notes.txt': 'one\n' });
  const { cli } = drover;

  beforeEach(async () => {
    await drover.host.core.api.saveAgentProfile({
      profile: { id: 'sh', name: 'sh', command: '/bin/sh', args: [], env: { PS1: '$ ' }, promptPattern: '\\$ ?$', busyPattern: null, needsInputPattern: null, usageLimitPattern: null, quietMs: 150, integration: 'none', wakeAs: 'shell-note' },
    });
  });

  /** A shell agent in its own worktree that ran one command: checkpoints 0 (start) and 1. */
  const agentWithOneTurn = async (): Promise<{ agent: Agent; worktree: Worktree }> => {
    const api = drover.host.core.api;
    const agent = await api.createAgent({ projectId: drover.project.id, name: 'builder', role: '', profileId: 'sh', workspace: { kind: 'new-worktree' } });
    const worktree = (await api.getWorkState({ projectId: drover.project.id })).worktrees.find((candidate) => candidate.agentId === agent.id) as Worktree;
    await api.startAgent({ agentId: agent.id, resume: false });
    const turns = async (): Promise<Turn[]> => (await api.listTurns({ agentId: agent.id })).turns;
    await waitFor(async () => (await turns()).length === 1 && (await api.getWorkState({ projectId: drover.project.id })).sessions[0]?.state === 'ready', 'the start checkpoint');
    await api.writeAgentInput({ agentId: agent.id, data: "printf 'two\\n' >> notes.txt\r" });
    await waitFor(async () => (await turns()).length === 2, 'checkpoint 1');
    return { agent, worktree };
  };

  it('lists checkpoints, prints a turn’s diff, restores one and says how to undo it', async () => {
    await agentWithOneTurn();
    const list = await cli(['turns', 'builder']);
    expect(list.code, list.stderr).toBe(0);
    const lines = list.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^N\s+KIND\s+TAKEN\s+FILES\s+ADDED\s+REMOVED\s+PROMPT$/);
    expect(lines[1]).toMatch(/^0\s+start\s+.+\s+0\s+\+0\s+-0\s+the start$/);
    expect(lines[2]).toMatch(/^1\s+turn\s+.+\s+1\s+\+1\s+-0\s+printf 'two\\n' >> notes\.txt$/);
    expect((JSON.parse((await cli(['turns', 'builder', '--json'])).stdout) as Turn[]).map((turn) => turn.n)).toEqual([0, 1]);

    const diff = await cli(['turns', 'diff', 'builder', '1']);
    expect(diff.code, diff.stderr).toBe(0);
    expect(diff.stdout).toContain('diff --git a/notes.txt b/notes.txt');
    expect(diff.stdout).toContain('+two');
    expect((await cli(['turns', 'diff', 'builder', '0', '1', '--stat'])).stdout).toMatch(/^notes\.txt\s+\+1\s+-0\s*\n1 file changed, \+1 -0\n$/);
    expect((await cli(['turns', 'diff', 'builder', '0', '--stat'])).stdout).toBe('0 files changed, +0 -0\n');

    const restore = await cli(['turns', 'restore', 'builder', '0']);
    expect(restore.code, restore.stderr).toBe(0);
    expect(restore.stdout).toBe('Restored checkpoint 0 of builder; what it held before is checkpoint 2 (drover turns restore builder 2 undoes this).\n');
  });

  it('names a file too large to show quoted, so its name cannot act on the terminal', async () => {
    const { agent, worktree } = await agentWithOneTurn();
    const name = 'big\u001b]52;c;aGk=\u0007.txt';
    fs.writeFileSync(path.join(worktree.path, name), `${'x'.repeat(3 * 1024 * 1024)}\n`);
    await drover.host.core.api.writeAgentInput({ agentId: agent.id, data: 'true\r' });
    await waitFor(async () => (await drover.host.core.api.listTurns({ agentId: agent.id })).turns.length === 3, 'checkpoint 2');
    const diff = await cli(['turns', 'diff', 'builder', '2']);
    expect(diff.code, diff.stderr).toBe(0);
    expect(diff.stdout).toMatch(/^# "big\\033]52;c;aGk=\\a\.txt": too large to show here; run git diff [0-9a-f]+ [0-9a-f]+\n$/);
  });

  it('refuses a checkpoint that does not exist and a bad number, with exit code 2', async () => {
    await agentWithOneTurn();
    const missing = await cli(['turns', 'diff', 'builder', '7']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('builder has no checkpoint 7 (checkpoints: 0–1)');
    const bad = await cli(['turns', 'restore', 'builder', 'last']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('N must be a checkpoint number');
  });
});
