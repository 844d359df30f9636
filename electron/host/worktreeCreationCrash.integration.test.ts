import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { connectToDrover } from '../cli/socketClient';
import { startServe, type ServeProcess } from '../../test-support/droverProcess';
import { git, holdWorktreeCreation, makeRepo } from '../../test-support/gitRepo';
import { makeTempDir, removeDir } from '../../test-support/tempDir';
import { waitFor } from '../../test-support/waitFor';

describe('a crash while a worktree is being made', () => {
  let dir: string;
  let host: ServeProcess | undefined;
  const env = () => ({ ...process.env, DROVER_PORT_BLOCKS_DIR: path.join(dir, 'ports') });

  beforeEach(() => {
    dir = makeTempDir();
  });
  afterEach(async () => {
    await host?.stop();
    removeDir(dir);
  });

  it('leaves no agent, folder, branch or worktree record after the next boot', async () => {
    const repo = makeRepo(path.join(dir, 'repo'), { 'readme.md': 'hello\n' });
    const hold = holdWorktreeCreation(repo, dir);
    const dataDir = path.join(dir, 'data');
    host = await startServe(['--data-dir', dataDir, '--project', repo], env());
    const client = await connectToDrover(path.join(dataDir, 'drover.sock'));
    const { id: projectId } = await client.rpc.call('findProjectByPath', { path: repo });
    const creating = client.rpc.call('createAgent', { projectId, name: 'doomed', role: '', profileId: 'shell', workspace: { kind: 'new-worktree' } });
    creating.catch(() => {});
    await waitFor(() => fs.existsSync(hold.started), 'git worktree add to reach the held file');
    expect(git(repo, 'for-each-ref', '--format=%(refname:short)', 'refs/heads/drover')).toMatch(/^drover\/doomed-/);
    await host.stop('SIGKILL');
    client.close();

    host = await startServe(['--data-dir', dataDir], env());
    expect(host.hostLog()).toContain('1 half-made worktrees undone');
    const after = await connectToDrover(path.join(dataDir, 'drover.sock'));
    try {
      const state = await after.rpc.call('getWorkState', { projectId });
      expect(state.agents).toEqual([]);
      expect(state.worktrees).toEqual([]);
    } finally {
      after.close();
    }
    expect(git(repo, 'worktree', 'list', '--porcelain').split('\n').filter((line) => line.startsWith('worktree '))).toEqual([`worktree ${repo}`]);
    expect(git(repo, 'for-each-ref', '--format=%(refname:short)', 'refs/heads')).toBe('main');
    expect(fs.readdirSync(path.join(dataDir, 'projects', projectId, 'worktrees'))).toEqual([]);
    expect(fs.existsSync(path.join(dir, 'ports')) ? fs.readdirSync(path.join(dir, 'ports')) : []).toEqual([]);

    // The git the killed host had started ends once its filter lets go.
    fs.writeFileSync(hold.gate, '');
    await waitFor(() => fs.existsSync(hold.done), 'the orphaned filter to end');
  });
});
