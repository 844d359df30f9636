import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir, removeDir } from '../../test-support/tempDir';
import { waitFor } from '../../test-support/waitFor';
import { connectToDrover } from '../cli/socketClient';
import { startHost, type DroverHost } from './host';

describe('local socket', () => {
  let dir: string;
  let host: DroverHost;

  beforeEach(async () => {
    dir = makeTempDir();
    host = await startHost({ dataDir: path.join(dir, 'data'), version: 'test' });
  });
  afterEach(async () => {
    await host.close();
    removeDir(dir);
  });

  it('is private to the owner and answers the contract', async () => {
    expect(fs.statSync(host.socketPath).mode & 0o777).toBe(0o600);
    const client = await connectToDrover(host.socketPath);
    await expect(client.rpc.call('getStatus', {})).resolves.toMatchObject({ version: 'test', dataDir: path.join(dir, 'data') });
    client.close();
  });

  it('is the data dir lock: a second host on the same dir is refused, a stale socket is not', async () => {
    await expect(startHost({ dataDir: path.join(dir, 'data'), version: 'test' })).rejects.toThrow(/Another Drover is already running/);
    await host.close();
    fs.writeFileSync(host.socketPath, '');
    host = await startHost({ dataDir: path.join(dir, 'data'), version: 'test' });
    const client = await connectToDrover(host.socketPath);
    await expect(client.rpc.call('listProjects', {})).resolves.toMatchObject({ projects: [] });
    client.close();
  });

  it('keeps the data dir locked until the closing host has finished its work', async () => {
    fs.mkdirSync(path.join(dir, 'repo'));
    const project = (await host.core.api.addProject({ path: path.join(dir, 'repo') }));
    const task = await host.core.api.createTask({ projectId: project.id, command: "trap '' TERM; echo armed; sleep 30" }) as { id: string; logPath: string };
    await waitFor(() => fs.existsSync(task.logPath) && fs.readFileSync(task.logPath, 'utf8').includes('armed'), 'the task to ignore SIGTERM');
    const closing = host.close();
    await expect(startHost({ dataDir: path.join(dir, 'data'), version: 'test' })).rejects.toThrow(/Another Drover is already running/);
    await closing;
    host = await startHost({ dataDir: path.join(dir, 'data'), version: 'test' });
  });

  it('reports that Drover is not running when nobody answers', async () => {
    await expect(connectToDrover(path.join(dir, 'nobody.sock'))).rejects.toThrow(/Drover is not running/);
  });
});
