import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
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

  const withProject = async () => {
    const dataDir = path.join(dir, 'data');
    host = await startHost({ dataDir, version: 'test' });
    const project = await host.core.api.addProject({ path: path.join(dir, 'healthy') });
    const task = await host.core.api.createTask({ projectId: project.id, command: 'echo kept' });
    await waitFor(async () => (await host.core.api.getTask({ taskId: task.id })).state === 'succeeded', 'the task to end');
    await host.close();
    return { dataDir, project, file: path.join(dataDir, 'projects', project.id, 'state.sqlite') };
  };

  it('missing is reported as missing data and never recreated, until the person chooses to start empty', async () => {
    const { dataDir, project, file } = await withProject();
    for (const suffix of ['', '-wal', '-shm']) fs.rmSync(file + suffix, { force: true });
    const logged: string[] = [];
    host = await startHost({ dataDir, version: 'test', log: (line) => logged.push(line) });
    expect(logged.join('\n')).toContain(`could not reconcile project healthy (${project.id}): The work state of project ${project.id} at ${file} is missing`);
    const refused = await host.core.api.getWorkState({ projectId: project.id }).catch((error: unknown) => error);
    expect(refused).toMatchObject({ code: 'data-missing', message: expect.stringContaining('choose Start empty') });
    expect(fs.existsSync(file)).toBe(false);

    await host.core.api.startProjectEmpty({ projectId: project.id });
    expect(await host.core.api.getWorkState({ projectId: project.id })).toMatchObject({ tasks: [], next: null });
    expect(fs.existsSync(file)).toBe(true);
  });

  it('empty (0 bytes) is reported and left as it is; starting empty never replaces a database that holds anything', async () => {
    const { dataDir, project, file } = await withProject();
    await expect(startHost({ dataDir, version: 'test' }).then(async (started) => {
      host = started;
      return host.core.api.startProjectEmpty({ projectId: project.id });
    })).rejects.toMatchObject({ code: 'conflict', message: expect.stringContaining('Drover never replaces it') });
    expect((await host.core.api.listTasks({ projectId: project.id })).tasks).toHaveLength(1);
    await host.close();

    for (const suffix of ['-wal', '-shm']) fs.rmSync(file + suffix, { force: true });
    fs.writeFileSync(file, '');
    host = await startHost({ dataDir, version: 'test' });
    await expect(host.core.api.getWorkState({ projectId: project.id })).rejects.toMatchObject({ code: 'data-missing', message: expect.stringContaining('is empty (0 bytes)') });
    expect(fs.statSync(file).size).toBe(0);
  });

  it('an empty app database stops the start, naming the file, and is left as it is', async () => {
    const { dataDir } = await withProject();
    const appFile = path.join(dataDir, 'app.sqlite');
    for (const suffix of ['-wal', '-shm']) fs.rmSync(appFile + suffix, { force: true });
    fs.writeFileSync(appFile, '');
    await expect(startHost({ dataDir, version: 'test' })).rejects.toThrow(`The app database at ${appFile} is empty (0 bytes)`);
    expect(fs.statSync(appFile).size).toBe(0);
    fs.rmSync(appFile);
    await expect(startHost({ dataDir, version: 'test' })).rejects.toThrow(`The app database at ${appFile} is missing`);
    host = await startHost({ dataDir: path.join(dir, 'fresh'), version: 'test' });
  });

  it('damage SQLite finds only mid-query is reported naming the damaged file', async () => {
    const { dataDir, project, file } = await withProject();
    // Damage the state index only: opening and reading every row still work.
    const db = new Database(file);
    const page = (db.prepare("SELECT rootpage FROM sqlite_master WHERE name = 'tasks_by_state'").pluck().get() as number) - 1;
    const pageSize = db.pragma('page_size', { simple: true }) as number;
    db.close();
    const fd = fs.openSync(file, 'r+');
    fs.writeSync(fd, Buffer.alloc(pageSize, 0x5a), 0, pageSize, page * pageSize);
    fs.closeSync(fd);
    host = await startHost({ dataDir, version: 'test' });
    expect((await host.core.api.getWorkState({ projectId: project.id })).tasks).toHaveLength(1);
    await expect(host.core.api.createTask({ projectId: project.id, command: 'true' })).rejects.toThrow(
      `The work state of project ${project.id} at ${file} is damaged or not a SQLite database`,
    );
  });
});
