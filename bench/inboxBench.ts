import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createCore } from '../electron/core/compose';
import type { BenchRow } from './table';

const MESSAGES = 10_000;
const WINDOW = 1_000;

/**
 * Posting 10,000 messages to one agent that is not at its prompt (each is stored, announced and
 * schedules the agent's wake, which waits): the time per message of the last 1,000 against the
 * first 1,000 of the same run. A post that looked at every pending message grew with the queue.
 */
export async function benchInbox(): Promise<BenchRow> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'drover-bench-inbox-'));
  const core = createCore({ dataDir: path.join(dir, 'data'), version: 'bench', socketPath: path.join(dir, 'unused.sock') });
  try {
    fs.mkdirSync(path.join(dir, 'project'));
    const project = await core.api.addProject({ path: path.join(dir, 'project') });
    const agent = await core.api.createAgent({ projectId: project.id, name: 'Inbox', role: '', profileId: 'shell' });
    core.startWork();
    const perMessageMs: number[] = [];
    for (let i = 0; i < MESSAGES; i++) {
      const start = process.hrtime.bigint();
      await core.api.sendMessage({ projectId: project.id, to: agent.id, kind: 'note', body: `message ${i}: ${'the build of shard 7 failed; '.repeat(16)}` });
      perMessageMs.push(Number(process.hrtime.bigint() - start) / 1e6);
    }
    const average = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
    const first = average(perMessageMs.slice(0, WINDOW));
    const last = average(perMessageMs.slice(-WINDOW));
    const ratio = last / first;
    return {
      name: `inbox: ${MESSAGES.toLocaleString('en')} messages posted to one waiting agent, per message`,
      drover: `${last.toFixed(3)} ms (last ${WINDOW.toLocaleString('en')})`,
      baseline: `${first.toFixed(3)} ms (first ${WINDOW.toLocaleString('en')})`,
      ratio,
      target: 'flat (within 1.5x)',
      met: ratio <= 1.5,
    };
  } finally {
    await core.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
