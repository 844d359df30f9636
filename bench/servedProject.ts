import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { connectToDrover, type SocketClient } from '../electron/cli/socketClient';
import { startServe, type ServeProcess } from '../test-support/droverProcess';
import { makeRepo } from '../test-support/gitRepo';

/** A `drover serve` of one project, in a temp root of its own, and a local socket client of it. */
export interface ServedProject {
  root: string;
  repo: string;
  serve: ServeProcess;
  client: SocketClient;
  projectId: string;
}

/**
 * Runs `bench` against a served project whose repo/ holds `files` on main; then closes the client,
 * stops the serve and removes the root, whatever the bench did. The serve leases port blocks of
 * its own, so the agents' worktrees do not take this machine's.
 */
export async function withServedProject<T>(files: Record<string, string>, bench: (served: ServedProject) => Promise<T>): Promise<T> {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'drover-bench-')));
  const repo = makeRepo(path.join(root, 'repo'), files);
  const serve = await startServe(['--data-dir', path.join(root, 'data'), '--project', repo], { ...process.env, DROVER_PORT_BLOCKS_DIR: path.join(root, 'port-blocks') });
  const client = await connectToDrover(path.join(root, 'data', 'drover.sock'));
  try {
    const { id: projectId } = await client.rpc.call('findProjectByPath', { path: repo });
    return await bench({ root, repo, serve, client, projectId });
  } finally {
    client.close();
    await serve.stop();
    fs.rmSync(root, { recursive: true, force: true });
  }
}

/** Adds a shell agent in a new worktree of its own; returns its id and the worktree's folder. */
export async function addWorktreeAgent({ client, projectId }: ServedProject, name: string): Promise<{ agentId: string; folder: string }> {
  const agent = await client.rpc.call('createAgent', { projectId, name, role: '', profileId: 'shell', workspace: { kind: 'new-worktree' } });
  const { worktrees } = await client.rpc.call('getWorkState', { projectId });
  const folder = worktrees.find((worktree) => worktree.agentId === agent.id)?.path;
  if (!folder) throw new Error(`${name} has no worktree`);
  return { agentId: agent.id, folder };
}
