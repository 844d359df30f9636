import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as pty from 'node-pty';
import WebSocket from 'ws';
import type { Agent } from '../shared/entities';
import { RpcClient } from '../shared/rpcClient';
import { startServe, type ServeProcess } from '../test-support/droverProcess';
import type { BenchRow } from './table';

const FLOOD_BYTES = 100 * 1024 * 1024;
const FLOOD = `head -c ${FLOOD_BYTES} /dev/zero | tr '\\0' 'a'; sleep 1`;
const ACK_STEP = 5_000;

function rssMb(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
}

/** Baseline: the same flood read straight from a node-pty PTY in this process. */
function rawFloodSeconds(): Promise<number> {
  return new Promise((resolve) => {
    const start = process.hrtime.bigint();
    const terminal = pty.spawn('/bin/sh', ['-c', FLOOD], { cols: 120, rows: 30 });
    let received = 0;
    terminal.onData((data) => {
      received += data.length;
      if (received >= FLOOD_BYTES) {
        resolve(Number(process.hrtime.bigint() - start) / 1e9);
        terminal.kill();
      }
    });
  });
}

async function connect(serve: ServeProcess, onTerminal: (data: string, agentId: string) => void): Promise<{ rpc: RpcClient; close(): void }> {
  const url = new URL(serve.url);
  const ws = new WebSocket(`ws://${url.host}/api?token=${url.searchParams.get('token')}`);
  const rpc = new RpcClient((frame) => ws.send(JSON.stringify(frame)), { onTerminal: (chunk) => onTerminal(chunk.data, chunk.agentId) });
  ws.on('message', (data) => rpc.receive(JSON.parse(data.toString())));
  await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
  return { rpc, close: () => ws.close() };
}

function profile(id: string, command: string, args: string[]) {
  return { id, name: id, command, args, env: {}, promptPattern: null, busyPattern: null, needsInputPattern: null, usageLimitPattern: null, quietMs: 500, integration: 'none' as const };
}

/** Drover: a flooding agent's terminal streamed to a WebSocket client that acknowledges like the renderer. */
async function droverFlood(serve: ServeProcess, projectId: string, rpc: RpcClient, onChunk: { handler: (data: string, agentId: string) => void }) {
  await rpc.call('saveAgentProfile', { profile: profile('flood', '/bin/sh', ['-c', FLOOD]) });
  const agent: Agent = await rpc.call('createAgent', { projectId, name: 'Flood', role: '', profileId: 'flood' });
  let received = 0;
  let unacknowledged = 0;
  // Flat memory: the host's RSS a quarter into the flood vs at its end (and the peak between).
  let rssAtQuarter = 0;
  let peakRss = rssMb(serve.child.pid as number);
  const sampler = setInterval(() => {
    peakRss = Math.max(peakRss, rssMb(serve.child.pid as number));
    if (!rssAtQuarter && received >= FLOOD_BYTES / 4) rssAtQuarter = rssMb(serve.child.pid as number);
  }, 100);
  const done = new Promise<number>((resolve) => {
    const start = process.hrtime.bigint();
    onChunk.handler = (data, agentId) => {
      if (agentId !== agent.id) return;
      received += data.length;
      unacknowledged += data.length;
      if (unacknowledged >= ACK_STEP) {
        void rpc.call('ackAgentOutput', { agentId: agent.id, chars: unacknowledged });
        unacknowledged = 0;
      }
      if (received >= FLOOD_BYTES) resolve(Number(process.hrtime.bigint() - start) / 1e9);
    };
  });
  await rpc.call('attachAgentTerminal', { agentId: agent.id });
  await rpc.call('startAgent', { agentId: agent.id, resume: false });
  const seconds = await done;
  clearInterval(sampler);
  return { seconds, peakRss, rssAtQuarter, rssAtEnd: rssMb(serve.child.pid as number) };
}

export async function benchTerminal(): Promise<BenchRow[]> {
  const rawSeconds = await rawFloodSeconds();
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'drover-bench-'));
  const repo = path.join(root, 'repo');
  fs.mkdirSync(repo);
  const serve = await startServe(['--data-dir', path.join(root, 'data'), '--project', repo]);
  try {
    const onChunk = { handler: (_data: string, _agentId: string) => {} };
    const client = await connect(serve, (data, agentId) => onChunk.handler(data, agentId));
    const { projects } = await client.rpc.call('listProjects', {});
    const projectId = projects[0]!.id;
    const rssBefore = rssMb(serve.child.pid as number);
    const flood = await droverFlood(serve, projectId, client.rpc, onChunk);

    const idleBefore = rssMb(serve.child.pid as number);
    await client.rpc.call('saveAgentProfile', { profile: profile('idle', '/bin/sh', ['-c', 'read line']) });
    for (let i = 0; i < 20; i++) {
      const agent = await client.rpc.call('createAgent', { projectId, name: `Idle ${i}`, role: '', profileId: 'idle' });
      await client.rpc.call('startAgent', { agentId: agent.id, resume: false });
    }
    const idleAfter = rssMb(serve.child.pid as number);
    client.close();

    const mbps = (seconds: number) => FLOOD_BYTES / 1024 / 1024 / seconds;
    return [
      {
        name: '100 MB terminal flood, PTY -> WebSocket client',
        drover: `${mbps(flood.seconds).toFixed(1)} MB/s`,
        baseline: `${mbps(rawSeconds).toFixed(1)} MB/s raw node-pty read`,
        ratio: mbps(flood.seconds) / mbps(rawSeconds),
        target: 'at least 0.5x raw',
        met: mbps(flood.seconds) >= 0.5 * mbps(rawSeconds),
      },
      {
        name: `host RSS at the flood's end (peak ${flood.peakRss.toFixed(0)} MB, ${rssBefore.toFixed(0)} MB before)`,
        drover: `${flood.rssAtEnd.toFixed(0)} MB`,
        baseline: `${flood.rssAtQuarter.toFixed(0)} MB at 25 MB in`,
        ratio: flood.rssAtEnd / flood.rssAtQuarter,
        target: 'flat while flooding',
        met: flood.rssAtEnd / flood.rssAtQuarter < 1.25,
      },
      {
        name: 'host memory with 20 idle agent sessions',
        drover: `${idleAfter.toFixed(0)} MB`,
        baseline: `${idleBefore.toFixed(0)} MB with none`,
        ratio: idleAfter / idleBefore,
        target: '-',
        met: true,
      },
    ];
  } finally {
    await serve.stop();
    fs.rmSync(root, { recursive: true, force: true });
  }
}
