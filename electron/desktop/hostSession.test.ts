import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CLI_PATH } from '../../test-support/buildOnce';
import { endDroverProcessesIn, runCli } from '../../test-support/droverProcess';
import { makeTempDir, removeDir } from '../../test-support/tempDir';
import { waitFor } from '../../test-support/waitFor';
import { readHostRecord } from '../host/hostRecord';
import { socketPathFor } from '../wire/paths';
import { HostSession } from './hostSession';

describe("the desktop window's session with a host of its own process", () => {
  let dir: string;
  let dataDir: string;
  let session: HostSession;

  const sessionOptions = () => ({
    dataDir,
    socketPath: socketPathFor(dataDir),
    // The window runs the CLI on its own Electron as Node; here the CLI runs on Node.
    start: { command: process.execPath, args: [CLI_PATH, 'host', 'run', '--data-dir', dataDir], env: process.env },
    log: () => undefined,
  });
  /** The pid of the host the session reached (null while it has none). */
  const hostPid = (): number | null => {
    try {
      return session.hello.pid;
    } catch {
      return null;
    }
  };

  beforeEach(() => {
    dir = makeTempDir();
    dataDir = path.join(dir, 'data');
    session = new HostSession(sessionOptions());
  });
  afterEach(async () => {
    session.close();
    await endDroverProcessesIn(dir);
    removeDir(dir);
  });

  it('starts a host, and one that is running is simply used: the window closes, the host stays', async () => {
    const hello = await session.open();
    expect(hello.pid).toBe(readHostRecord(dataDir)?.pid);
    expect((await session.call('getStatus', {})).dataDir).toBe(dataDir);
    session.close();
    const again = new HostSession({ ...sessionOptions(), log: () => undefined });
    expect((await again.open()).pid).toBe(hello.pid);
    again.close();
  });

  it('a host that dies is found again: the session starts a new one', async () => {
    const first = await session.open();
    process.kill(first.pid, 'SIGKILL');
    await waitFor(() => hostPid() !== null && hostPid() !== first.pid, 'a new host', 30_000);
    expect((await session.call('getStatus', {})).dataDir).toBe(dataDir);
  });

  it('restarts the host on purpose into a new one', async () => {
    const first = await session.open();
    await session.stopHost(true);
    expect(session.hello.pid).not.toBe(first.pid);
    expect(readHostRecord(dataDir)?.pid).toBe(session.hello.pid);
  });

  it('a host stopped from a terminal (drover host stop) is found again: the session starts a new one', async () => {
    const first = await session.open();
    const stop = await runCli(['--data-dir', dataDir, 'host', 'stop']);
    expect(stop.code).toBe(0);
    await waitFor(() => hostPid() !== null && hostPid() !== first.pid, 'a new host', 30_000);
  });
});
