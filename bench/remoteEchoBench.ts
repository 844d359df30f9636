import net from 'node:net';
import path from 'node:path';
import * as pty from 'node-pty';
import { PtyInput } from '../electron/core/process/ptyInput';
import { endDroverProcessesIn, runCli, startServe } from '../test-support/droverProcess';
import { freePort } from '../test-support/ports';
import { CAN_RUN_SSHD, startSshRemote, type SshRemote } from '../test-support/sshServer';
import { makeTempDir, removeDir } from '../test-support/tempDir';
import { commandProfile, connect } from './benchClient';
import { percentile, type BenchRow } from './table';

const KEYS = 200;
const WARMUP_KEYS = 10;
const ADDED_DELAY_MS = 50;
const TARGET_EXTRA_MS = 5;

/**
 * A TCP proxy to sshd that holds every chunk `oneWayMs` in each direction: a link whose round
 * trip is 2 × oneWayMs longer, for ssh and Drover alike.
 */
async function delayingProxy(targetPort: number, oneWayMs: number): Promise<{ port: number; close(): Promise<void> }> {
  const sockets = new Set<net.Socket>();
  const relay = (from: net.Socket, to: net.Socket) => from.on('data', (chunk) => setTimeout(() => to.write(chunk), oneWayMs));
  const server = net.createServer((client) => {
    const upstream = net.connect(targetPort, '127.0.0.1');
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      // The proxy adds its delay and nothing else (no Nagle of its own on top of the ends').
      socket.setNoDelay(true);
      socket.on('error', () => undefined);
      socket.on('close', () => setTimeout(() => (socket === client ? upstream : client).destroy(), oneWayMs));
    }
    relay(client, upstream);
    relay(upstream, client);
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    port,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * One key at a time into `write`, each timed until its echo comes back. Each key comes back twice
 * (the terminal's echo, then cat's copy): key n is echoed once 2n + 1 x's came, so cat's copy of
 * one key never passes for the echo of the next. Resolves once every key came back twice, so no
 * write is left in flight when the session ends.
 */
async function timeKeys(write: (key: string) => void, onOutput: (count: (data: string | Uint8Array) => void) => void): Promise<number[]> {
  let echoes = 0;
  let waiting: { until: number; resolve: () => void } | null = null;
  onOutput((data) => {
    echoes += Buffer.from(data).toString('latin1').split('x').length - 1;
    if (waiting && echoes >= waiting.until) waiting.resolve();
  });
  const latencies: number[] = [];
  const untilEchoes = (until: number) => new Promise<void>((resolve) => (echoes >= until ? resolve() : (waiting = { until, resolve })));
  for (let i = 0; i < KEYS + WARMUP_KEYS; i++) {
    const start = performance.now();
    const echoed = untilEchoes(2 * i + 1);
    write('x');
    await echoed;
    if (i >= WARMUP_KEYS) latencies.push(performance.now() - start);
  }
  await untilEchoes(2 * (KEYS + WARMUP_KEYS));
  return latencies;
}

/** The baseline: `cat` typed into over a plain `ssh -tt` session, the remote PTY echoing. */
async function plainSshLatencies(remote: SshRemote, port: number): Promise<number[]> {
  // Once the remote says it is ready, ssh has put this end's terminal in raw mode: every echo is the remote's.
  const session = pty.spawn('ssh', ['-F', remote.sshConfig, '-tt', '-p', String(port), remote.alias, 'stty -icanon; echo REMOTE-READY; exec cat'], { cols: 120, rows: 30 });
  let output = '';
  await new Promise<void>((resolve) => {
    session.onData((data) => {
      output += data;
      if (output.includes('REMOTE-READY')) resolve();
    });
  });
  // Written as Drover writes an agent's input: a key still queued when ssh ends is dropped, not printed as an unhandled error.
  const input = new PtyInput(session);
  session.onExit(() => input.close());
  const latencies = await timeKeys(
    (key) => input.write(key),
    (count) => session.onData(count),
  );
  session.kill();
  return latencies;
}

function row(name: string, drover: number[], plain: number[]): BenchRow {
  const p50 = percentile([...drover].sort((a, b) => a - b), 50);
  const plainP50 = percentile([...plain].sort((a, b) => a - b), 50);
  const p99 = percentile([...drover].sort((a, b) => a - b), 99);
  return {
    name,
    drover: `p50 ${p50.toFixed(1)} ms, p99 ${p99.toFixed(1)} ms`,
    baseline: `p50 ${plainP50.toFixed(1)} ms plain ssh -tt`,
    ratio: p50 / plainP50,
    target: `p50 within ${TARGET_EXTRA_MS} ms of plain ssh`,
    met: p50 - plainP50 <= TARGET_EXTRA_MS,
  };
}

/**
 * Keystroke to echo through an agent on another machine, as its page gets it (WebSocket to this
 * machine's host, one ssh bridge to that machine's host, its PTY), against the same `cat` (its
 * terminal not canonical, so each key comes back twice, as timeKeys counts) typed over a plain `ssh -tt`: on the loopback, and with 50 ms added to the round trip.
 */
export async function benchRemoteEcho(): Promise<BenchRow[]> {
  if (!CAN_RUN_SSHD) {
    return [{ name: 'keystroke -> echo through an agent on another machine', drover: 'skipped: needs root for sshd', baseline: '-', ratio: NaN, target: '-', met: true }];
  }
  const remote = await startSshRemote();
  const dir = makeTempDir();
  const dataDir = path.join(dir, 'data');
  const env = { ...process.env, DROVER_SSH_COMMAND: remote.sshCommand };
  const proxy = await delayingProxy(remote.port, ADDED_DELAY_MS / 2);
  const serve = await startServe(['--data-dir', dataDir], env);
  const rows: BenchRow[] = [];
  try {
    remote.ssh('mkdir -p echo-app');
    for (const [machine, port, label] of [
      ['box', remote.port, 'loopback'],
      ['box-far', proxy.port, `+${ADDED_DELAY_MS} ms round trip`],
    ] as const) {
      const added = await runCli(['--data-dir', dataDir, 'machine', 'add', machine, remote.alias, '-p', String(port)], { env });
      if (added.code !== 0) throw new Error(`machine add failed: ${added.stderr}`);
      const client = await connect(serve, `/machines/${machine}/api`);
      try {
        await client.rpc.call('hostHello', { protocol: 2, version: 'bench', client: 'bench' });
        const project = await client.rpc.call('addProject', { path: path.join(remote.home, 'echo-app') });
        await client.rpc.call('saveAgentProfile', { profile: commandProfile('echo', '/bin/sh', ['-c', 'stty -icanon; exec cat']) });
        const agent = await client.rpc.call('createAgent', { projectId: project.id, name: `Echo ${machine}`, role: '', profileId: 'echo' });
        await client.rpc.call('startAgent', { agentId: agent.id, resume: false });
        await client.rpc.call('attachAgentTerminal', { agentId: agent.id, cols: 120, rows: 30 });
        const drover = await timeKeys(
          (key) => void client.rpc.call('writeAgentInput', { agentId: agent.id, data: key }),
          (count) =>
            (client.onTerminal = (data) => {
              void client.rpc.call('ackAgentOutput', { agentId: agent.id, bytes: data.length });
              count(data);
            }),
        );
        await client.rpc.call('stopAgent', { agentId: agent.id });
        rows.push(row(`keystroke -> echo through an agent on another machine, ${label} (${KEYS} keys)`, drover, await plainSshLatencies(remote, port)));
      } finally {
        client.close();
      }
    }
  } finally {
    await serve.stop();
    // The host serve started, and any other of this dir (one brought back, one whose start timed out).
    await endDroverProcessesIn(dir);
    await proxy.close();
    await remote.stop();
    removeDir(dir);
  }
  return rows;
}
