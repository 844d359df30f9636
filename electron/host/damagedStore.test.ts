import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir, removeDir } from '../../test-support/tempDir';
import { waitFor } from '../../test-support/waitFor';
import { startHost, type DroverHost } from './host';

describe('a damaged project database', () => {
  let dir: string;
  let host: DroverHost;

  beforeEach(() => {
    dir = makeTempDir();
    fs.mkdirSync(path.join(dir, 'broken'));
    fs.mkdirSync(path.join(dir, 'healthy'));
  });
  afterEach(async () => {
    await host.close();
    removeDir(dir);
  });

  it('is reported for its project alone: the host starts and every other project works', async () => {
    const dataDir = path.join(dir, 'data');
    host = await startHost({ dataDir, version: 'test' });
    const broken = (await host.core.api.addProject({ path: path.join(dir, 'broken') }));
    const healthy = (await host.core.api.addProject({ path: path.join(dir, 'healthy') }));
    await host.core.api.getWorkState({ projectId: broken.id });
    await host.close();
    const file = path.join(dataDir, 'projects', broken.id, 'state.sqlite');
    for (const suffix of ['-wal', '-shm']) fs.rmSync(file + suffix, { force: true });
    const garbage = Buffer.alloc(8192, 'not a database ');
    fs.writeFileSync(file, garbage);

    host = await startHost({ dataDir, version: 'test' });
    await expect(host.core.api.getWorkState({ projectId: broken.id })).rejects.toThrow(/damaged or not a SQLite database.*left it untouched/);
    const task = (await host.core.api.createTask({ projectId: healthy.id, command: 'echo fine' }));
    await waitFor(async () => (await host.core.api.getTask({ taskId: task.id })).state === 'succeeded', 'a task in the healthy project');
    expect(fs.readFileSync(file).equals(garbage)).toBe(true);
  });
});
