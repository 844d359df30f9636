import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Task } from '../shared/entities/tasks';
import { RpcClient } from '../shared/rpcClient';
import { openDoorSocket } from '../test-support/doorSocket';
import { startServe } from '../test-support/droverProcess';
import { percentile, type BenchRow } from './table';

/** The command prints the wall-clock time (ns) just before it exits. */
const STAMP_AND_EXIT = 'date +%s%N';

/** Wall-clock now with sub-millisecond resolution, comparable with `date +%s%N`. */
function preciseNow(): number {
  return performance.timeOrigin + performance.now();
}

function stampOf(text: string): number {
  const match = /(\d{16,})/.exec(text);
  if (!match) throw new Error(`no timestamp in ${JSON.stringify(text)}`);
  return Number(BigInt(match[1] as string) / 1000n) / 1000;
}

/** Baseline: the same command spawned directly, exit seen by Node's child_process in this process. */
async function rawExitLatencies(count: number): Promise<number[]> {
  const latencies: number[] = [];
  for (let i = 0; i < count; i++) {
    latencies.push(
      await new Promise<number>((resolve) => {
        const child = spawn('/bin/sh', ['-c', STAMP_AND_EXIT]);
        let out = '';
        child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
        child.on('exit', () => resolve(preciseNow() - stampOf(out)));
      }),
    );
  }
  return latencies;
}

/** Drover: a `drover serve` process runs each task; a WebSocket client waits for its end event. */
async function droverExitLatencies(count: number): Promise<number[]> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'drover-bench-'));
  const repo = path.join(root, 'repo');
  fs.mkdirSync(repo);
  const serve = await startServe(['--data-dir', path.join(root, 'data'), '--project', repo]);
  try {
    const ended = new Map<string, (task: Task) => void>();
    // A task's end can be read in the same chunk as the reply that created it, before that reply's
    // promise settles: it waits here for its waiter.
    const endedFirst = new Map<string, Task>();
    const rpc = new RpcClient((frame) => ws.send(JSON.stringify(frame)), {
      onEvent: (event) => {
        if (event.name === 'backgroundTaskChanged' && ['succeeded', 'failed'].includes(event.task.state)) {
          const waiter = ended.get(event.task.id);
          if (waiter) waiter(event.task);
          else endedFirst.set(event.task.id, event.task);
        }
      },
    });
    const ws = await openDoorSocket(serve.url, { onMessage: (data) => rpc.receive(JSON.parse(data.toString())) });
    const { projects } = await rpc.call('listProjects', {});
    const projectId = projects[0]!.id;
    const latencies: number[] = [];
    for (let i = 0; i < count; i++) {
      const done = new Promise<number>((resolve) => {
        const receive = (task: Task) => resolve(preciseNow() - stampOf(fs.readFileSync(task.logPath, 'utf8')));
        void rpc.call('createTask', { projectId, command: STAMP_AND_EXIT }).then((task) => {
          const early = endedFirst.get(task.id);
          if (early) receive(early);
          else ended.set(task.id, receive);
        });
      });
      latencies.push(await done);
    }
    ws.close();
    return latencies;
  } finally {
    await serve.stop();
    fs.rmSync(root, { recursive: true, force: true });
  }
}

export async function benchExitLatency(count = 200): Promise<BenchRow[]> {
  const raw = (await rawExitLatencies(count)).sort((a, b) => a - b);
  const drover = (await droverExitLatencies(count)).sort((a, b) => a - b);
  return [50, 99].map((p) => {
    const d = percentile(drover, p);
    const r = percentile(raw, p);
    return {
      name: `task exit -> WebSocket client event, p${p} (${count} tasks)`,
      drover: `${d.toFixed(1)} ms`,
      baseline: `${r.toFixed(1)} ms child_process exit`,
      ratio: d / Math.max(r, 0.1),
      target: p === 99 ? 'p99 under 10 ms (quiet machine)' : '-',
      met: p === 99 ? d < 10 : true,
    };
  });
}
