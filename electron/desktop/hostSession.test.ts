import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { PushFrame } from '../../shared/protocol';
import { CLI_PATH } from '../../test-support/buildOnce';
import { runCli, stopHostOf } from '../../test-support/droverProcess';
import { makeTempDir, removeDir } from '../../test-support/tempDir';
import { waitFor } from '../../test-support/waitFor';
import { readHostRecord } from '../host/hostRecord';
import { socketPathFor } from '../wire/paths';
import { HostSession, type HostConnectionState } from './hostSession';

describe("the desktop window's session with a host of its own process", () => {
  let dir: string;
  let dataDir: string;
  let session: HostSession;
  const states: HostConnectionState[] = [];

  beforeEach(() => {
    dir = makeTempDir();
    dataDir = path.join(dir, 'data');
    states.length = 0;
    session = new HostSession({
      dataDir,
      socketPath: socketPathFor(dataDir),
      // The window runs the CLI on its own Electron as Node; here the CLI runs on Node.
      start: { command: process.execPath, args: [CLI_PATH, 'host', 'run', '--data-dir', dataDir], env: process.env },
      log: () => undefined,
    });
    session.onStateChange((state) => states.push(state));
  });
  afterEach(async () => {
    session.close();
    await stopHostOf(dataDir, 'SIGKILL');
    removeDir(dir);
  });

  it('starts a host, relays a page: replies to its calls and the events the host pushes', async () => {
    const hello = await session.open();
    expect(hello.pid).toBe(readHostRecord(dataDir)?.pid);
    const pushes: PushFrame[] = [];
    const relay = await session.openRelay((frame) => pushes.push(frame));
    const folder = path.join(dir, 'shop');
    fs.mkdirSync(folder);
    const reply = await relay.invoke({ t: 'req', id: 41, method: 'addProject', params: { path: folder } });
    expect(reply).toMatchObject({ t: 'res', id: 41, ok: true, result: { name: 'shop' } });
    await waitFor(() => pushes.some((frame) => frame.t === 'evt' && frame.event.name === 'projectChanged'), 'the projectChanged event');
    expect(await relay.invoke({ t: 'req', id: 42, method: 'noSuchMethod' })).toMatchObject({ id: 42, ok: false, error: { code: 'unknown-method' } });
    expect(await relay.invoke({ id: 'not a frame' })).toMatchObject({ ok: false, error: { message: expect.stringContaining('Malformed request frame') } });
    relay.close();
    // The window goes: its connections close, the host stays.
    session.close();
    await relay.closed;
    expect(readHostRecord(dataDir)?.pid).toBe(hello.pid);
  });

  it('a host that dies is lost to the pages, then found again: the session starts a new one', async () => {
    const first = await session.open();
    const relay = await session.openRelay(() => undefined);
    process.kill(first.pid, 'SIGKILL');
    await relay.closed;
    expect(await relay.invoke({ t: 'req', id: 1, method: 'getStatus' })).toMatchObject({ ok: false, error: { message: 'Not connected to the Drover host.' } });
    await waitFor(() => states.join() === 'lost,open', 'lost, then open again', 30_000);
    expect(session.hello.pid).not.toBe(first.pid);
    expect((await session.call('getStatus', {})).dataDir).toBe(dataDir);
  });

  it('restarts the host on purpose: the pages hear it was stopped and came back', async () => {
    const first = await session.open();
    await session.stopHost(true);
    expect(states).toEqual(['stopped', 'open']);
    expect(session.hello.pid).not.toBe(first.pid);
  });

  it('a host stopped from a terminal (drover host stop) is heard as stopped, not as lost', async () => {
    const first = await session.open();
    const stop = await runCli(['--data-dir', dataDir, 'host', 'stop']);
    expect(stop.code).toBe(0);
    await waitFor(() => states.join() === 'stopped,open', 'stopped, then open again', 30_000);
    expect(session.hello.pid).not.toBe(first.pid);
  });
});
