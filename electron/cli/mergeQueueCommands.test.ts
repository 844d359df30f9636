import { describe, expect, it } from 'vitest';
import type { Worktree } from '../../shared/entities/worktrees';
import { cliProjectPerTest } from '../../test-support/cliProjectPerTest';
import { commitFiles, git } from '../../test-support/gitRepo';
import { waitFor } from '../../test-support/waitFor';

describe('drover merge-queue', () => {
  const drover = cliProjectPerTest({ 'shared.txt': 'one\n' });
  const { cli, addAgent } = drover;
  const listed = async () => JSON.parse((await cli(['merge-queue', 'list', '--json'])).stdout) as { agent: string; branch: string; state: string; reason?: string }[];
  const agentWith = async (name: string, files: Record<string, string>): Promise<Worktree> => {
    const worktree = await addAgent(name);
    commitFiles(worktree.path, files, name);
    return worktree;
  };

  it('sets the check command, queues, lists, moves, pauses, resumes and removes', async () => {
    expect((await cli(['merge-queue', 'check-command'])).stdout).toBe("No check command: repo's queue lands what rebases cleanly.\n");
    expect((await cli(['merge-queue', 'check-command', 'test -f shared.txt'])).code).toBe(0);
    expect((await cli(['merge-queue', 'check-command', '--json'])).stdout).toBe('{"checkCommand":"test -f shared.txt"}\n');
    expect((await cli(['merge-queue', 'list'])).stdout).toBe('The merge queue of repo is empty.\n');

    const alpha = await agentWith('alpha', { 'alpha.txt': 'a\n' });
    const beta = await agentWith('beta', { 'beta.txt': 'b\n' });
    expect(await cli(['merge-queue', 'pause'])).toMatchObject({ code: 0 });
    expect(await cli(['merge-queue', 'add', 'alpha'])).toMatchObject({ code: 0, stdout: `Queued ${alpha.branch} of alpha for merge into main.\n` });
    expect((await cli(['merge-queue', 'add', 'beta'])).code).toBe(0);
    expect(await cli(['merge-queue', 'add', 'alpha'])).toMatchObject({ code: 2, stderr: expect.stringContaining('alpha is in the merge queue of main already (queued)') });
    expect(await listed()).toEqual([
      { agent: 'alpha', branch: alpha.branch, parent: 'main', state: 'queued' },
      { agent: 'beta', branch: beta.branch, parent: 'main', state: 'queued' },
    ]);
    const moved = JSON.parse((await cli(['merge-queue', 'move', 'beta', '1', '--json'])).stdout) as { agent: string }[];
    expect(moved.map((entry) => entry.agent)).toEqual(['beta', 'alpha']);
    expect((await cli(['merge-queue', 'list'])).stdout).toMatch(/^AGENT\s+BRANCH\s+PARENT\s+STATE\s+REASON\nbeta\s+\S+\s+main\s+queued/);
    expect(await cli(['merge-queue', 'remove', 'beta'])).toMatchObject({ code: 0 });

    expect(await cli(['merge-queue', 'resume'])).toMatchObject({ code: 0 });
    await waitFor(async () => (await listed())[0]?.state === 'merged', 'alpha to land');
    expect((await listed()).map((entry) => entry.agent)).toEqual(['alpha']);
    expect(git(drover.repo, 'log', '-1', '--format=%s', 'main')).toBe('alpha');
    expect(await cli(['merge-queue'])).toMatchObject({ code: 2, stderr: expect.stringContaining('drover merge-queue needs a command: add, list, remove, move, check-command, pause, resume') });
    expect(await cli(['merge-queue', 'add', 'nobody'])).toMatchObject({ code: 2, stderr: expect.stringContaining('No agent nobody in repo') });
    // Each command starts a CLI process: on a busy machine they add up.
  }, 90_000);
});
