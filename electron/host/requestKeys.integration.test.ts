import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Project } from '../../shared/entities/projects';
import type { ResponseFrame } from '../../shared/protocol';
import { makeTempDir, removeDir } from '../../test-support/tempDir';
import { startHost, type DroverHost } from './host';

describe('a keyed call sent again after a dropped connection', () => {
  let dir: string;
  let host: DroverHost;
  let project: Project;

  beforeEach(async () => {
    dir = makeTempDir();
    fs.mkdirSync(path.join(dir, 'repo'));
    host = await startHost({ dataDir: path.join(dir, 'data'), version: 'test', settingsDefaults: { taskConcurrency: 1 } });
    project = await host.core.api.addProject({ path: path.join(dir, 'repo') });
  });
  afterEach(async () => {
    await host.close();
    removeDir(dir);
  });

  const createTask = (key: string | undefined, id: number) => ({ t: 'req', id, method: 'createTask', params: { projectId: project.id, command: 'sleep 30', label: 'once' }, ...(key === undefined ? {} : { key }) });
  const taskIdOf = (frame: ResponseFrame) => (frame.ok ? (frame.result as { id: string }).id : `${frame.error.code}: ${frame.error.message}`);
  const labelled = async () => (await host.core.api.listTasks({ projectId: project.id })).tasks.filter((task) => task.label === 'once');

  it('is applied once: the repeat on a new connection gets the first answer under its own id', async () => {
    const first = host.openConnection(() => undefined, 'web');
    const answered = await first.handle(createTask('page-1-7', 7));
    // The connection drops before the page read the answer; the page sends the call again.
    first.close();
    const second = host.openConnection(() => undefined, 'web');
    const repeated = await second.handle(createTask('page-1-7', 1));
    second.close();
    expect(repeated.id).toBe(1);
    expect(taskIdOf(repeated)).toBe(taskIdOf(answered));
    expect(await labelled()).toHaveLength(1);
  });

  it('waits for the first one while it still runs, and a new key or no key is a new call', async () => {
    const connection = host.openConnection(() => undefined, 'web');
    const [a, b] = await Promise.all([connection.handle(createTask('k-1', 1)), connection.handle(createTask('k-1', 2))]);
    expect(taskIdOf(b)).toBe(taskIdOf(a));
    await connection.handle(createTask('k-2', 3));
    await connection.handle(createTask(undefined, 4));
    await connection.handle(createTask(undefined, 5));
    connection.close();
    expect(await labelled()).toHaveLength(4);
  });

  it("never gives one client's answer to another: the same key through another door is a call of its own", async () => {
    const person = host.openConnection(() => undefined, 'web');
    const other = host.openConnection(() => undefined, 'socket');
    const byPerson = await person.handle(createTask('same-key', 1));
    const byOther = await other.handle(createTask('same-key', 1));
    person.close();
    other.close();
    expect(taskIdOf(byOther)).not.toBe(taskIdOf(byPerson));
    expect(await labelled()).toHaveLength(2);
  });

  it('refuses a key that is empty or too long, as a malformed frame', async () => {
    const connection = host.openConnection(() => undefined, 'web');
    const empty = await connection.handle(createTask('', 1));
    const long = await connection.handle({ ...createTask(undefined, 2), key: 'k'.repeat(201) });
    connection.close();
    expect(taskIdOf(empty)).toMatch(/^bad-request: Malformed request frame: key/);
    expect(taskIdOf(long)).toMatch(/^bad-request: Malformed request frame: key/);
    expect(await labelled()).toHaveLength(0);
  });
});
