import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir, removeDir } from '../../test-support/tempDir';
import { waitFor } from '../../test-support/waitFor';
import { startHost, type DroverHost } from './host';

const NOBODY = 65534;

/** Every file and folder below `dir` whose mode lets anyone but the owner in. */
function widerThanOwner(dir: string): string[] {
  return fs.readdirSync(dir, { recursive: true, withFileTypes: true }).flatMap((entry) => {
    const file = path.join(entry.parentPath, entry.name);
    const stat = fs.lstatSync(file);
    return !stat.isSymbolicLink() && (stat.mode & 0o077) !== 0 ? [`${path.relative(dir, file)} ${(stat.mode & 0o777).toString(8)}`] : [];
  });
}

describe('the data dir is private', () => {
  let dir: string;
  let dataDir: string;
  let host: DroverHost | undefined;
  const logged: string[] = [];

  beforeEach(() => {
    dir = makeTempDir();
    // Another user can reach the data dir's parent: only the data dir's own modes keep them out.
    fs.chmodSync(dir, 0o755);
    dataDir = path.join(dir, 'data');
    logged.length = 0;
  });
  afterEach(async () => {
    await host?.close();
    host = undefined;
    removeDir(dir);
  });

  it('tightens a data dir that others could read, and everything in it, and says so', async () => {
    // What an older Drover left: everything readable by all.
    fs.mkdirSync(path.join(dir, 'repo'));
    host = await startHost({ dataDir, version: 'test' });
    const project = await host.core.api.addProject({ path: path.join(dir, 'repo') });
    await host.close();
    const logs = path.join(dataDir, 'projects', project.id, 'logs');
    fs.mkdirSync(logs);
    fs.writeFileSync(path.join(logs, 't-old.log'), 'password=hunter2\n');
    fs.writeFileSync(path.join(dataDir, 'browser-token'), 'token\n');
    for (const name of ['', ...fs.readdirSync(dataDir, { recursive: true }).map(String)]) {
      const file = path.join(dataDir, name);
      fs.chmodSync(file, fs.statSync(file).isDirectory() || name === path.join('bin', 'drover') ? 0o755 : 0o644);
    }
    host = await startHost({ dataDir, version: 'test', log: (line) => logged.push(line) });
    expect(fs.statSync(dataDir).mode & 0o777).toBe(0o700);
    expect(widerThanOwner(dataDir)).toEqual([]);
    expect(fs.statSync(path.join(dataDir, 'bin', 'drover')).mode & 0o777).toBe(0o700);
    expect(logged).toEqual(
      expect.arrayContaining([
        `the data dir ${dataDir} was open to other users (mode 0755); it is now 0700`,
        expect.stringMatching(/^\d+ files and folders in the data dir were readable by other users/),
      ]),
    );
  });

  it('keeps what Drover writes owner-only: databases, their journals, task logs', async () => {
    fs.mkdirSync(dataDir, { mode: 0o755 });
    fs.mkdirSync(path.join(dir, 'repo'));
    host = await startHost({ dataDir, version: 'test' });
    const project = await host.core.api.addProject({ path: path.join(dir, 'repo') });
    const task = await host.core.api.createTask({ projectId: project.id, command: 'echo password=hunter2' });
    await waitFor(async () => (await host?.core.api.getTask({ taskId: task.id }))?.state === 'succeeded', 'the task to end');
    const files = fs.readdirSync(dataDir, { recursive: true }).map(String);
    expect(files).toEqual(expect.arrayContaining(['app.sqlite-wal', path.join('projects', project.id, 'state.sqlite-wal'), path.join('projects', project.id, 'logs', `${task.id}.log`)]));
    expect(widerThanOwner(dataDir)).toEqual([]);
  });

  it('as another user sees it: nothing in it can be read or listed', async (context) => {
    if (process.getuid?.() !== 0) {
      context.skip('needs root to act as another user (CI runs as root); the mode checks above still ran');
      return;
    }
    fs.mkdirSync(path.join(dir, 'repo'));
    host = await startHost({ dataDir, version: 'test' });
    const project = await host.core.api.addProject({ path: path.join(dir, 'repo') });
    const task = await host.core.api.createTask({ projectId: project.id, command: 'echo password=hunter2' });
    await waitFor(async () => (await host?.core.api.getTask({ taskId: task.id }))?.state === 'succeeded', 'the task to end');
    const targets = [dataDir, ...fs.readdirSync(dataDir, { recursive: true }).map((name) => path.join(dataDir, String(name)))];
    const readable = targets.filter((target) => {
      const reader = fs.statSync(target).isDirectory() ? ['ls', target] : ['cat', target];
      return spawnSync(reader[0] as string, reader.slice(1), { uid: NOBODY, gid: NOBODY }).status === 0;
    });
    expect(targets.length).toBeGreaterThan(5);
    expect(readable).toEqual([]);
  });
});
