import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import * as pty from 'node-pty';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PROTOCOL_VERSION } from '../../shared/host';
import { CLI_PATH, REPO_ROOT } from '../../test-support/buildOnce';
import { endDroverProcessesIn, runCli, startServe } from '../../test-support/droverProcess';
import { makeTempDir, removeDir } from '../../test-support/tempDir';
import { waitFor } from '../../test-support/waitFor';
import { HOST_LOG_FILE, isRecordedHostAlive, readHostRecord } from '../host/hostRecord';
import { socketPathFor } from '../wire/paths';
import { connectToDrover } from './socketClient';

const AS_ROOT = process.getuid?.() === 0;
const OLDER_HOST = path.join(REPO_ROOT, 'test-support', 'fixtures', 'older-host.mjs');
const NOBODY = 65534;

describe('drover host: one lasting host per data dir, started by whoever needs it first', () => {
  let dir: string;
  let dataDir: string;
  const host = (...args: string[]) => runCli(['--data-dir', dataDir, 'host', ...args], { env: { ...process.env, DROVER_SOCKET: '' } });
  const hostPid = () => readHostRecord(dataDir)?.pid;

  beforeEach(() => {
    dir = makeTempDir();
    dataDir = path.join(dir, 'data');
  });
  afterEach(async () => {
    await endDroverProcessesIn(dir);
    removeDir(dir);
  });

  it('start runs a host detached from the command, status reports it, a second start finds it', async () => {
    const started = await host('start');
    expect(started.code, started.stderr).toBe(0);
    expect(started.stdout).toMatch(/^Drover host started: pid \d+, version /);
    const pid = hostPid() as number;
    // Its own session: a hang-up or a signal to the group of whoever started it does not reach it.
    expect(fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ')[3]).toBe(String(pid));
    const status = await host('status');
    expect(status.code).toBe(0);
    expect(status.stdout).toContain(`Drover host: running, pid ${pid}`);
    expect(status.stdout).toContain(`log:      ${path.join(dataDir, HOST_LOG_FILE)}`);
    expect(status.stdout).toContain('running:  0 agents and 0 tasks');
    expect(status.stdout).toContain('browser:  no door open (drover serve opens one)\n');
    expect((await host('start')).stdout).toContain(`Drover host already running: pid ${pid}`);
    const json = JSON.parse((await host('status', '--json')).stdout) as { alive: boolean; pid: number };
    expect(json).toMatchObject({ alive: true, pid });
  });

  it('status names the browser door a serve keeps open, by its address (the token stays with serve)', async () => {
    const serving = await startServe(['--data-dir', dataDir]);
    try {
      const status = await host('status');
      expect(status.code, status.stderr).toBe(0);
      expect(status.stdout).toContain(`browser:  ${new URL(serving.url).origin}\n`);
      expect(status.stdout).not.toContain(new URL(serving.url).searchParams.get('token') as string);
    } finally {
      await serving.stopServe();
    }
  });

  it('two clients racing to start a host get the same one', async () => {
    const [first, second] = await Promise.all([host('start'), host('start')]);
    expect(first.code, first.stderr).toBe(0);
    expect(second.code, second.stderr).toBe(0);
    const pid = hostPid();
    expect(first.stdout).toContain(`pid ${pid}`);
    expect(second.stdout).toContain(`pid ${pid}`);
  });

  it("a test's teardown ends a host still loading, which no host.json names yet (a start race's loser would otherwise run on in the removed dir)", async () => {
    const loading = spawn(process.execPath, [CLI_PATH, 'host', 'run', '--data-dir', dataDir], { stdio: 'ignore' });
    const exited = new Promise<NodeJS.Signals | null>((resolve) => loading.once('exit', (_code, signal) => resolve(signal)));
    expect(readHostRecord(dataDir)).toBeNull();
    await endDroverProcessesIn(dir);
    expect(await exited).toBe('SIGKILL');
  });

  it('stop names the running work and asks; without a terminal to ask on it needs --force; the next start reconciles', async () => {
    await host('start');
    const repo = path.join(dir, 'repo');
    fs.mkdirSync(repo);
    const adding = await connectToDrover(socketPathFor(dataDir));
    await adding.rpc.call('addProject', { path: repo });
    adding.close();
    const taskId = (await runCli(['--data-dir', dataDir, 'task', 'run', '--project', repo, '--label', 'long one', '--', 'sleep 60'], { cwd: repo })).stdout.trim();
    expect(taskId).toMatch(/^t-/);
    const refused = await host('stop');
    expect(refused.code).toBe(2);
    expect(refused.stdout).toContain('Stopping the host ends 0 agents and 1 task');
    expect(refused.stdout).toContain('task long one (');
    expect(refused.stderr).toContain('Add --force to stop them anyway');
    expect((await host('status')).code).toBe(0);

    const stopped = await host('stop', '--force');
    expect(stopped.code, stopped.stderr).toBe(0);
    expect(stopped.stdout).toContain('Drover host stopped (0 agents and 1 task ended)');
    expect(readHostRecord(dataDir)).toBeNull();
    const down = await host('status');
    expect(down.code).toBe(1);
    expect(down.stdout).toContain('Drover host: not running');

    await host('start');
    const client = await connectToDrover(socketPathFor(dataDir));
    try {
      expect(await client.rpc.call('getTask', { taskId })).toMatchObject({ state: 'interrupted' });
    } finally {
      client.close();
    }
  });

  /** A started host with one project and one running task labelled `label`. */
  async function hostRunningTask(label: string): Promise<void> {
    await host('start');
    const repo = path.join(dir, 'repo');
    fs.mkdirSync(repo);
    const client = await connectToDrover(socketPathFor(dataDir));
    try {
      const project = await client.rpc.call('addProject', { path: repo });
      await client.rpc.call('createTask', { projectId: project.id, command: 'sleep 60', label });
    } finally {
      client.close();
    }
  }

  it('stop asked on a terminal and answered N stops nothing and exits 2', async () => {
    await hostRunningTask('kept');
    const terminal = pty.spawn(process.execPath, [CLI_PATH, '--data-dir', dataDir, 'host', 'stop'], { cwd: dir, env: { ...process.env, DROVER_SOCKET: '' } });
    let screen = '';
    terminal.onData((data) => (screen += data));
    const exited = new Promise<number>((resolve) => terminal.onExit(({ exitCode }) => resolve(exitCode)));
    await waitFor(() => screen.includes('Stop them? [y/N]'), 'the question');
    terminal.write('N\r');
    expect(await exited).toBe(2);
    expect(screen).toContain('Not stopped.');
    expect((await host('status')).stdout).toContain('running:  0 agents and 1 task');
  });

  it('status and stop name the running work with control characters escaped: a label cannot write the clipboard or clear the screen', async () => {
    await hostRunningTask('deploy\u001b]52;c;aGk=\u0007\u001b[2J');
    // eslint-disable-next-line no-control-regex -- the very characters that must not reach the terminal
    const controls = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/;
    const escaped = 'task "deploy\\033]52;c;aGk=\\a\\033[2J" (running) in repo';
    const status = await host('status');
    expect(status.stdout).not.toMatch(controls);
    expect(status.stdout).toContain(escaped);
    const refused = await host('stop');
    expect(refused.code).toBe(2);
    expect(refused.stdout).not.toMatch(controls);
    expect(refused.stdout).toContain(escaped);
  });

  it('restart stops the host and starts a new one', async () => {
    await host('start');
    const before = hostPid();
    const restarted = await host('restart', '--force');
    expect(restarted.code, restarted.stderr).toBe(0);
    expect(restarted.stdout).toMatch(/Drover host stopped[\s\S]*Drover host started: pid \d+/);
    expect(hostPid()).not.toBe(before);
  });

  it('a stale socket of a dead host is no obstacle', async () => {
    fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    const socketPath = socketPathFor(dataDir);
    // A process that listened on the socket and was killed: the file stays, nobody answers on it.
    const listener = spawn(process.execPath, ['-e', `require('net').createServer().listen(${JSON.stringify(socketPath)}, () => console.log('up'))`]);
    await new Promise((resolve) => listener.stdout.once('data', resolve));
    listener.kill('SIGKILL');
    await new Promise((resolve) => listener.once('exit', resolve));
    expect(fs.existsSync(socketPath)).toBe(true);
    const started = await host('start');
    expect(started.code, started.stderr).toBe(0);
  });

  it('a host that cannot start is reported with its reason and where its log is', async () => {
    fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    fs.writeFileSync(path.join(dataDir, 'app.sqlite'), 'not a database at all, but something else entirely', { mode: 0o600 });
    const started = await host('start');
    expect(started.code).toBe(1);
    expect(started.stderr).toMatch(/The Drover host could not start: it exited with code \d\./);
    expect(started.stderr).toContain('app.sqlite');
    expect(started.stderr).toContain(`Its log: ${path.join(dataDir, HOST_LOG_FILE)}`);
  });

  it.runIf(AS_ROOT)("refuses a data dir that belongs to another user (needs root to make one)", async () => {
    fs.mkdirSync(dataDir, { mode: 0o700 });
    fs.chownSync(dataDir, NOBODY, NOBODY);
    const run = await host('run');
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`The data dir ${dataDir} belongs to another user (uid ${NOBODY})`);
  });

  it.runIf(AS_ROOT)('says plainly that it cannot write to a read-only data dir (run as another user: root writes anywhere)', async () => {
    fs.chmodSync(dir, 0o755);
    fs.mkdirSync(dataDir, { mode: 0o500 });
    fs.chownSync(dataDir, NOBODY, NOBODY);
    const child = spawn(process.execPath, [CLI_PATH, '--data-dir', dataDir, 'host', 'run'], { uid: NOBODY, gid: NOBODY, env: { ...process.env, HOME: dir } });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code).toBe(1);
    expect(stderr).toContain(`Drover cannot write to its data dir ${dataDir} (permission denied)`);
  });

  it('a host killed while a client waits on it: the call fails with a plain reason', async () => {
    await host('start');
    const client = await connectToDrover(socketPathFor(dataDir));
    const record = readHostRecord(dataDir);
    if (!record) throw new Error('no host record');
    const folder = path.join(dir, 'repo');
    fs.mkdirSync(folder);
    const project = await client.rpc.call('addProject', { path: folder });
    await client.rpc.call('createAgent', { projectId: project.id, name: 'Asked', role: '', profileId: 'shell' });
    const question = await client.rpc.call('sendMessage', { projectId: project.id, to: 'Asked', kind: 'question', body: 'still there?' });
    const waiting = client.rpc.call('awaitReply', { questionId: question.id, timeoutMs: 60_000 });
    process.kill(record.pid, 'SIGKILL');
    await expect(waiting).rejects.toThrow('Drover closed the connection.');
    // A call after that fails at once, rather than waiting for an answer that never comes.
    await client.closed;
    await expect(client.rpc.call('getStatus', {})).rejects.toThrow('Drover closed the connection.');
    client.close();
    await waitFor(() => !isRecordedHostAlive(record), 'the host gone');
    // The next client starts a new one on the same data dir.
    expect((await host('start')).stdout).toContain('Drover host started');
  });
});

describe('a client meeting a host of another protocol', () => {
  let dir: string;
  let dataDir: string;
  let older: ChildProcess;

  beforeEach(async () => {
    dir = makeTempDir();
    dataDir = path.join(dir, 'data');
    // An older host: it answers in the protocol before this one.
    older = spawn(process.execPath, [OLDER_HOST, socketPathFor(dataDir), '0.0.9', String(PROTOCOL_VERSION - 1)], { stdio: ['ignore', 'pipe', 'inherit'] });
    await new Promise((resolve) => older.stdout?.once('data', resolve));
  });
  afterEach(async () => {
    older.kill('SIGKILL');
    await endDroverProcessesIn(dir);
    removeDir(dir);
  });

  it('says which versions met and how to move the host to this one', async () => {
    const result = await runCli(['status'], { env: { ...process.env, DROVER_SOCKET: socketPathFor(dataDir) } });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`The running Drover host is version 0.0.9 (protocol ${PROTOCOL_VERSION - 1})`);
    expect(result.stderr).toContain('drover host restart');
  });

  it('host status names it, and host restart moves the data dir to a host of this version', async () => {
    const gone = new Promise((resolve) => older.once('exit', resolve));
    const host = (...args: string[]) => runCli(['--data-dir', dataDir, 'host', ...args], { env: { ...process.env, DROVER_SOCKET: '' } });
    const status = await host('status');
    expect(status.code, status.stderr).toBe(0);
    expect(status.stdout).toContain(`version 0.0.9 (protocol ${PROTOCOL_VERSION - 1})`);
    const restarted = await host('restart', '--force');
    expect(restarted.code, restarted.stderr).toBe(0);
    expect(restarted.stdout).toContain('Drover host stopped (0 agents and 0 tasks ended).');
    await gone;
    const client = await connectToDrover(socketPathFor(dataDir));
    client.close();
    expect((await host('status')).stdout).toContain(`(protocol ${PROTOCOL_VERSION})`);
  });
});
