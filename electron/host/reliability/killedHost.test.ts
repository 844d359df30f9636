import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Task } from '../../../shared/entities/tasks';
import { runCli, startServe, type ServeProcess } from '../../../test-support/droverProcess';
import { makeTempDir, removeDir } from '../../../test-support/tempDir';
import { waitFor } from '../../../test-support/waitFor';
import { isProcessGroupAlive } from '../../core/process/processGroup';
import { connectToDrover } from '../../cli/socketClient';
import { socketPathFor } from '../../wire/paths';

describe('a host killed with SIGKILL loses nothing', () => {
  let dir: string;
  let dataDir: string;
  let repo: string;
  let serve: ServeProcess | undefined;
  const leftovers: number[] = [];

  const cli = (args: string[]) => runCli(['--data-dir', dataDir, ...args], { cwd: repo });
  const tasks = async () => JSON.parse((await cli(['task', 'list', '--json'])).stdout) as Task[];

  beforeEach(() => {
    dir = makeTempDir();
    dataDir = path.join(dir, 'data');
    repo = path.join(dir, 'repo');
    fs.mkdirSync(repo);
  });
  afterEach(async () => {
    await serve?.stop();
    for (const pgid of leftovers) {
      try {
        process.kill(-pgid, 'SIGKILL');
      } catch {
        // already gone, as it should be
      }
    }
    removeDir(dir);
  });

  it('interrupts running tasks, kills their groups, runs the queued ones, keeps every row intact', async () => {
    serve = await startServe(['--data-dir', dataDir, '--project', repo]);
    const client = await connectToDrover(socketPathFor(dataDir));
    const { projects } = await client.rpc.call('listProjects', {});
    await client.rpc.call('updateProjectSettings', { projectId: projects[0]!.id, settings: { taskConcurrency: 2 } });
    client.close();

    const done = (await cli(['task', 'run', '--label', 'quick', '--', 'echo done'])).stdout.trim();
    await waitFor(async () => (await tasks()).find((t) => t.id === done)?.state === 'succeeded', 'quick task to finish');
    // One task ignores the hang-up the dying host's PTY sends, so only reconciliation can end it.
    const stubborn = (await cli(['task', 'run', '--label', 'stubborn', '--', "trap '' HUP; sleep 300"])).stdout.trim();
    const plain = (await cli(['task', 'run', '--label', 'plain', '--', 'sleep 300'])).stdout.trim();
    const queued = [1, 2, 3].map(async (n) => (await cli(['task', 'run', '--label', `queued-${n}`, '--', `echo queued-${n}`])).stdout.trim());
    const queuedIds = await Promise.all(queued);
    const running = await waitFor(async () => {
      const list = await tasks();
      const both = list.filter((t) => t.id === stubborn || t.id === plain);
      return both.every((t) => t.state === 'running') && both;
    }, 'two tasks running');
    expect((await tasks()).filter((t) => queuedIds.includes(t.id)).map((t) => t.state)).toEqual(['queued', 'queued', 'queued']);
    const groups = running.map((t) => t.pid as number);
    leftovers.push(...groups);

    await serve.stop('SIGKILL');
    expect(isProcessGroupAlive(groups[running.findIndex((t) => t.id === stubborn)] as number)).toBe(true);

    serve = await startServe(['--data-dir', dataDir]);
    expect(serve.hostLog()).toMatch(/2 interrupted, 0 cancelled, \d leftover process groups killed, 3 queued to start/);
    const after = await tasks();
    expect(after).toHaveLength(6);
    for (const t of running) expect(after.find((a) => a.id === t.id)).toMatchObject({ state: 'interrupted', reason: 'app-restart' });
    for (const pgid of groups) await waitFor(() => !isProcessGroupAlive(pgid), `process group ${pgid} to be gone`);
    await waitFor(async () => (await tasks()).filter((t) => queuedIds.includes(t.id)).every((t) => t.state === 'succeeded'), 'queued tasks to run');
    expect((await tasks()).find((t) => t.id === done)).toMatchObject({ state: 'succeeded' });

    await serve.stop();
    serve = undefined;
    const projectDir = fs.readdirSync(path.join(dataDir, 'projects'))[0] as string;
    for (const file of [path.join(dataDir, 'app.sqlite'), path.join(dataDir, 'projects', projectDir, 'state.sqlite')]) {
      const db = new Database(file, { readonly: true });
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
      db.close();
    }
  }, 90_000);

  it('a host killed while serve runs is brought back by serve, its door on the same port, its task interrupted', async () => {
    // serve starts the host, so it is the host's parent: the dead host stays a zombie until serve reaps it.
    serve = await startServe(['--data-dir', dataDir, '--project', repo]);
    const id = (await cli(['task', 'run', '--', 'sleep 300'])).stdout.trim();
    const running = await waitFor(async () => (await tasks()).find((t) => t.id === id && t.state === 'running'), 'task to run');
    leftovers.push(running.pid as number);
    const killed = serve.hostPid();
    process.kill(killed, 'SIGKILL');

    await waitFor(() => serve?.hostAlive() && serve.hostPid() !== killed, 'a new host', 30_000);
    await waitFor(() => serve?.stderr().includes('the browser door is open again'), 'serve to open the door again', 30_000);
    expect(serve.stderr()).toContain('the Drover host went away; starting it again');
    expect(serve.stderr()).not.toContain('serve ends too');
    expect(serve.child.exitCode).toBeNull();
    const status = JSON.parse((await cli(['host', 'status', '--json'])).stdout) as { webDoors: { url: string }[] };
    expect(status.webDoors.map((door) => new URL(door.url).origin)).toEqual([new URL(serve.url).origin]);
    expect((await tasks()).find((t) => t.id === id)).toMatchObject({ state: 'interrupted', reason: 'app-restart' });
  }, 90_000);

  it('a host killed while serve runs, whose port another program took meanwhile, comes back with its door elsewhere and a new token, and serve says so', async () => {
    serve = await startServe(['--data-dir', dataDir]);
    const first = new URL(serve.url);
    const port = Number(first.port);
    process.kill(serve.hostPid(), 'SIGKILL');
    // Another program binds the door's port as soon as the dead host freed it, before serve's new host opens it.
    const squatter = await waitFor(
      () =>
        new Promise<net.Server | false>((resolve) => {
          const server = net.createServer();
          server.once('error', () => resolve(false));
          server.listen(port, '127.0.0.1', () => resolve(server));
        }),
      "the dead host's port to be free",
    );
    try {
      await waitFor(() => serve?.stderr().includes('the browser door is open again'), 'serve to open the door again', 30_000);
      const status = JSON.parse((await cli(['host', 'status', '--json'])).stdout) as { webDoors: { url: string }[] };
      const moved = new URL(status.webDoors[0]?.url ?? '');
      expect(Number(moved.port)).not.toBe(port);
      expect(moved.searchParams.get('token')).not.toBe(first.searchParams.get('token'));
      await waitFor(() => serve?.urls().includes(moved.href), 'serve to print the new URL');
      expect(serve.stderr()).toContain(`port ${port}, where the browser door served last, is taken by another program: the door opened on ${moved.port} with a new token`);
      expect(serve.stderr()).not.toContain('--port');
      expect(serve.child.exitCode).toBeNull();
    } finally {
      squatter.close();
    }
  }, 90_000);

  it('reconciling again after a clean restart changes nothing', async () => {
    serve = await startServe(['--data-dir', dataDir, '--project', repo]);
    const id = (await cli(['task', 'run', '--', 'sleep 300'])).stdout.trim();
    await waitFor(async () => (await tasks()).find((t) => t.id === id)?.state === 'running', 'task to run');
    await serve.stop('SIGKILL');
    serve = await startServe(['--data-dir', dataDir]);
    const first = await tasks();
    await serve.stop();
    serve = await startServe(['--data-dir', dataDir]);
    expect(serve.hostLog()).toMatch(/0 interrupted, 0 cancelled, 0 leftover process groups killed, 0 queued to start/);
    expect(await tasks()).toEqual(first);
  }, 90_000);
});
