import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../test-support/buildOnce';
import { portAnswers } from '../../test-support/ports';
import { makeTempDir, removeDir } from '../../test-support/tempDir';
import { waitFor } from '../../test-support/waitFor';
import { connectToDrover } from '../cli/socketClient';
import { startHost, type DroverHost } from './host';
import { ensureHost } from './hostLauncher';

const NOBODY = 65534;
const RENDERER_DIR = path.join(REPO_ROOT, 'dist', 'renderer');

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

describe('nothing another user put in the data dir is trusted', () => {
  let dir: string;
  let dataDir: string;
  let host: DroverHost | undefined;
  const logged: string[] = [];

  beforeEach((context) => {
    if (process.getuid?.() !== 0) context.skip('needs root to plant files as another user (CI runs as root)');
    dir = makeTempDir();
    fs.chmodSync(dir, 0o755);
    dataDir = path.join(dir, 'data');
    logged.length = 0;
  });
  afterEach(async () => {
    await host?.close();
    host = undefined;
    if (dir) removeDir(dir);
  });

  /** What another user leaves in a data dir they could write to: a file of theirs at `name`. */
  function plant(name: string, content: string): void {
    const file = path.join(dataDir, name);
    fs.writeFileSync(file, content, { mode: 0o644 });
    fs.lchownSync(file, NOBODY, NOBODY);
  }

  const openDoor = async (): Promise<string> => {
    const client = await connectToDrover((host as DroverHost).socketPath);
    try {
      const { url, port } = await client.rpc.call('openWebDoor', { host: '127.0.0.1', port: 0, allowOrigins: [], newToken: false });
      client.close();
      // One door at a time: the next one opens once this one has closed with its connection.
      await waitFor(async () => !(await portAnswers(port)), 'the door closed');
      return new URL(url).searchParams.get('token') ?? '';
    } finally {
      client.close();
    }
  };

  it('a browser token another user planted while the data dir was open is replaced, never served', async () => {
    host = await startHost({ dataDir, version: 'test' });
    await host.close();
    fs.chmodSync(dataDir, 0o777);
    const planted = 'planted-by-another-user-0123456789abcdef';
    plant('browser-token', `${planted}\n`);
    host = await startHost({ dataDir, version: 'test', rendererDir: RENDERER_DIR, log: (line) => logged.push(line) });
    const token = await openDoor();
    expect(token).toMatch(/^[A-Za-z0-9_-]{32,}$/);
    expect(token).not.toBe(planted);
    const file = path.join(dataDir, 'browser-token');
    expect(fs.lstatSync(file)).toMatchObject({ uid: 0, mode: expect.any(Number) });
    expect(fs.lstatSync(file).mode & 0o777).toBe(0o600);
    expect(logged).toEqual(expect.arrayContaining([expect.stringContaining(`removed what another user had put in the data dir, which Drover does not trust: ${file} (uid ${NOBODY})`)]));
  });

  it('a token file that is a symlink, or readable by others, is replaced with a new one of its own', async () => {
    host = await startHost({ dataDir, version: 'test', rendererDir: RENDERER_DIR, log: (line) => logged.push(line) });
    const first = await openDoor();
    const file = path.join(dataDir, 'browser-token');
    fs.chmodSync(file, 0o644);
    const second = await openDoor();
    expect(second).not.toBe(first);
    const elsewhere = path.join(dir, 'elsewhere');
    fs.writeFileSync(elsewhere, `${second}\n`, { mode: 0o600 });
    fs.rmSync(file);
    fs.symlinkSync(elsewhere, file);
    const third = await openDoor();
    expect(third).not.toBe(second);
    expect(fs.lstatSync(file).isSymbolicLink()).toBe(false);
    expect(fs.readFileSync(elsewhere, 'utf8')).toBe(`${second}\n`);
    expect(logged.filter((line) => line.includes('a new token replaces it'))).toHaveLength(2);
  });

  it('a folder another user made there stops the start, named', async () => {
    host = await startHost({ dataDir, version: 'test' });
    await host.close();
    host = undefined;
    fs.chmodSync(dataDir, 0o777);
    const foreign = path.join(dataDir, 'planted');
    fs.mkdirSync(foreign);
    fs.chownSync(foreign, NOBODY, NOBODY);
    await expect(startHost({ dataDir, version: 'test' })).rejects.toThrow(`holds folders another user made while it was open to others: ${foreign}`);
  });

  it("a client opens nothing in another user's data dir, not even its host.log through a planted symlink", async () => {
    fs.mkdirSync(dataDir);
    const target = path.join(dir, 'victim');
    fs.writeFileSync(target, 'untouched\n');
    fs.symlinkSync(target, path.join(dataDir, 'host.log'));
    fs.lchownSync(path.join(dataDir, 'host.log'), NOBODY, NOBODY);
    fs.chownSync(dataDir, NOBODY, NOBODY);
    const start = { command: process.execPath, args: ['-e', ''], env: process.env };
    await expect(ensureHost({ dataDir, socketPath: path.join(dir, 'none.sock'), start })).rejects.toThrow(`The data dir ${dataDir} belongs to another user (uid ${NOBODY})`);
    expect(fs.readFileSync(target, 'utf8')).toBe('untouched\n');
  });

  it('a planted host.log symlink in its own data dir is refused by name, never followed', async () => {
    fs.mkdirSync(dataDir, { mode: 0o700 });
    const target = path.join(dir, 'victim');
    fs.writeFileSync(target, 'untouched\n');
    fs.symlinkSync(target, path.join(dataDir, 'host.log'));
    const start = { command: process.execPath, args: ['-e', ''], env: process.env };
    await expect(ensureHost({ dataDir, socketPath: path.join(dir, 'none.sock'), start })).rejects.toThrow(`${path.join(dataDir, 'host.log')} is a symbolic link`);
    expect(fs.readFileSync(target, 'utf8')).toBe('untouched\n');
  });
});
