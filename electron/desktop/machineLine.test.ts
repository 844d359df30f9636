import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sshClientFrom } from '../../shared/machines';
import type { ConnectionNotice } from '../../shared/preloadBridge';
import type { PushFrame } from '../../shared/protocol';
import { CLI_PATH } from '../../test-support/buildOnce';
import { runCli, stopHostOf } from '../../test-support/droverProcess';
import { CAN_RUN_SSHD, SSHD_REQUIREMENT, startSshRemote, type SshRemote } from '../../test-support/sshServer';
import { makeTempDir, removeDir } from '../../test-support/tempDir';
import { waitFor } from '../../test-support/waitFor';
import { socketPathFor } from '../wire/paths';
import { sshLauncher } from '../wire/sshProcess';
import { spawnSshBridge, type SshBridge } from '../wire/sshRelay';
import { HostSession } from './hostSession';
import { MachineLine } from './machineLine';

const VERSION = (JSON.parse(fs.readFileSync('package.json', 'utf8')) as { version: string }).version;

describe.skipIf(!CAN_RUN_SSHD)(`a desktop window of another machine, over the real OpenSSH (${SSHD_REQUIREMENT})`, () => {
  let remote: SshRemote;
  let dir: string;
  let dataDir: string;
  let session: HostSession;
  let sshCommand: string;

  beforeAll(async () => {
    remote = await startSshRemote();
    dir = makeTempDir();
    dataDir = path.join(dir, 'data');
    const env = { ...process.env, DROVER_SOCKET: '', DROVER_SSH_COMMAND: remote.sshCommand };
    session = new HostSession({
      dataDir,
      socketPath: socketPathFor(dataDir),
      start: { command: process.execPath, args: [CLI_PATH, 'host', 'run', '--data-dir', dataDir], env },
      log: () => undefined,
    });
    await session.open();
    const added = await runCli(['--data-dir', dataDir, 'machine', 'add', 'box', remote.alias], { env });
    expect(added.code, added.stderr).toBe(0);
  }, 90_000);
  afterAll(async () => {
    session?.close();
    await stopHostOf(dataDir, 'SIGKILL');
    await remote?.stop();
    removeDir(dir);
  }, 60_000);

  it("reaches the machine's host once ssh lets it, says ssh's reason until then, and comes back after the connection drops", async () => {
    const notices: ConnectionNotice[] = [];
    const pushes: PushFrame[] = [];
    // The person's ssh first refuses the key; then they fix their config.
    sshCommand = remote.variant('refused-key');
    const line = new MachineLine({
      machine: 'box',
      version: VERSION,
      openBridge: async () => spawnSshBridge(sshLauncher(sshClientFrom({ DROVER_SSH_COMMAND: sshCommand })), (await session.call('updateMachineHost', { name: 'box' })).machine),
      push: (frame) => pushes.push(frame),
      notify: (notice) => notices.push(notice),
    });
    try {
      await waitFor(() => notices[0], 'the first notice');
      expect(notices[0]).toEqual({ state: 'lost', reason: expect.stringContaining('refused the login') });
      expect(await line.invoke({ t: 'req', id: 1, method: 'listProjects', params: {} })).toMatchObject({ id: 1, ok: false, error: { message: expect.stringContaining('Not connected to box: Cannot connect') } });
      sshCommand = remote.sshCommand;
      await waitFor(() => line.lastNotice()?.state === 'open', 'the line open once ssh lets it in', 30_000);

      remote.ssh('mkdir -p shop && cd shop && git init -q');
      const shop = path.join(remote.home, 'shop');
      expect(await line.invoke({ t: 'req', id: 2, method: 'addProject', params: { path: shop } })).toMatchObject({ id: 2, ok: true, result: { name: 'shop', path: shop } });
      await waitFor(() => pushes.some((frame) => frame.t === 'evt' && frame.event.name === 'projectChanged'), "the remote host's projectChanged event");
      // What a page may not ask of a host, and the line's own request id, stay on this side.
      expect(await line.invoke({ t: 'req', id: 3, method: 'stopHost', params: { restart: false } })).toMatchObject({ id: 3, ok: false, error: { message: expect.stringContaining('not for a page') } });
      expect(await line.invoke({ t: 'req', id: 0, method: 'listProjects', params: {} })).toMatchObject({ ok: false, error: { message: expect.stringContaining('number calls from 1') } });
      expect(await line.invoke({ id: 'not a frame' })).toMatchObject({ ok: false, error: { message: expect.stringContaining('Malformed request frame') } });

      const opened = notices.length;
      execFileSync('pkill', ['-KILL', '-P', String(process.pid), '-f', 'host connect']);
      await waitFor(() => notices.slice(opened).some((notice) => notice.state === 'lost'), 'the line lost once ssh is gone');
      await waitFor(() => notices.at(-1)?.state === 'open', 'the line open again', 30_000);
      const listed = await line.invoke({ t: 'req', id: 4, method: 'listProjects', params: {} });
      expect(listed).toMatchObject({ id: 4, ok: true, result: { projects: [{ path: shop }] } });
    } finally {
      line.close();
    }
    // Closed for good: no bridge of it is left, and none starts again.
    await waitFor(() => !processRuns('host connect'), 'no ssh bridge of the line left');
  }, 90_000);

  it('tells its page nothing once closed, even when the greeting was already on its way', async () => {
    const notices: ConnectionNotice[] = [];
    const pushes: PushFrame[] = [];
    let bridged: SshBridge | undefined;
    const line: MachineLine = new MachineLine({
      machine: 'box',
      version: VERSION,
      openBridge: async () => {
        bridged = spawnSshBridge(sshLauncher(sshClientFrom({ DROVER_SSH_COMMAND: remote.sshCommand })), (await session.call('updateMachineHost', { name: 'box' })).machine);
        // The page goes (a reload) right after the line greeted the machine's host.
        setImmediate(() => line.close());
        return bridged;
      },
      push: (frame) => pushes.push(frame),
      notify: (notice) => notices.push(notice),
    });
    const bridge = await waitFor(() => bridged, 'the bridge');
    expect(await bridge.ended).toBeNull();
    await new Promise((resolve) => setImmediate(resolve));
    expect(notices).toEqual([]);
    expect(pushes).toEqual([]);
  }, 60_000);
});

function processRuns(pattern: string): boolean {
  try {
    execFileSync('pgrep', ['-P', String(process.pid), '-f', pattern]);
    return true;
  } catch {
    return false;
  }
}
