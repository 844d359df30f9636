import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentWorkspaceRequest } from '../../../shared/entities/worktrees';
import { startServe, type ServeProcess } from '../../../test-support/droverProcess';
import { commitFiles, git, makeRepo, writeFiles } from '../../../test-support/gitRepo';
import { makeTempDir, removeDir } from '../../../test-support/tempDir';
import { connectToDrover, type SocketClient } from '../../cli/socketClient';
import { socketPathFor } from '../../wire/paths';

/** Every file under `folder`, relative to it. */
const filesUnder = (folder: string) => fs.readdirSync(folder, { recursive: true, encoding: 'utf8' });

describe('a repository that attacks the host through its branches', () => {
  let dir: string;
  let repo: string;
  let host: ServeProcess | undefined;
  let client: SocketClient;
  let projectId: string;
  const addAgent = (name: string, workspace: AgentWorkspaceRequest) => client.rpc.call('createAgent', { projectId, name, role: '', profileId: 'shell', workspace });

  beforeAll(async () => {
    dir = makeTempDir();
    repo = makeRepo(path.join(dir, 'repo'), { 'readme.md': 'hello\n', 'conf/settings.json': '{}\n', '.gitignore': 'conf/.env\n', '.worktreeinclude': 'conf/.env\n' });
    writeFiles(repo, { 'conf/.env': 'SECRET=1\n' });
    const dataDir = path.join(dir, 'data');
    host = await startServe(['--data-dir', dataDir, '--project', repo], { ...process.env, DROVER_PORT_BLOCKS_DIR: path.join(dir, 'ports') });
    client = await connectToDrover(socketPathFor(dataDir));
    projectId = (await client.rpc.call('findProjectByPath', { path: repo })).id;
  });
  afterAll(async () => {
    client?.close();
    await host?.stop();
    removeDir(dir);
  });

  it('runs no branch name as a git option: a worktree on --exec=… is refused, and nothing runs', async () => {
    const external = path.join(dir, 'external');
    const branch = '--exec=touch${IFS}pwned';
    git(repo, 'worktree', 'add', '--quiet', '-b', 'scratch', external);
    commitFiles(external, { 'feature.txt': 'x\n' }, 'work');
    git(external, 'update-ref', `refs/heads/${branch}`, 'HEAD');
    git(external, 'symbolic-ref', 'HEAD', `refs/heads/${branch}`);
    commitFiles(repo, { 'later.txt': 'y\n' }, 'main moves on');
    const attached = await addAgent('visitor', { kind: 'existing-worktree', path: external }).then(
      (agent) => client.rpc.call('mergeWorktree', { agentId: agent.id, strategy: 'rebase' }),
      (error: unknown) => error,
    );
    expect(fs.existsSync(path.join(external, 'pwned'))).toBe(false);
    expect(String(attached)).toMatch(/starts with "-", so git would read it as an option/);
  });

  it('writes no .worktreeinclude copy through a symlink the base branch tracks', async () => {
    const elsewhere = path.join(dir, 'elsewhere');
    fs.mkdirSync(elsewhere);
    const tree = path.join(dir, 'make-linked');
    git(repo, 'worktree', 'add', '--quiet', '-b', 'linked', tree);
    fs.rmSync(path.join(tree, 'conf'), { recursive: true });
    fs.symlinkSync(elsewhere, path.join(tree, 'conf'));
    git(tree, 'add', '--all');
    git(tree, 'commit', '--quiet', '-m', 'conf is a symlink');
    git(repo, 'worktree', 'remove', tree);
    const made = await addAgent('linked', { kind: 'new-worktree', base: 'linked' }).then(
      () => null,
      (error: unknown) => error,
    );
    expect(filesUnder(elsewhere)).toEqual([]);
    expect(String(made)).toMatch(/conf there is a symbolic link to .*elsewhere, outside the worktree/);
  });
});
