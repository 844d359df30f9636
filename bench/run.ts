import { benchBrowser } from './browserBench';
import { benchExitLatency } from './exitLatencyBench';
import { benchHost } from './hostBench';
import { benchInbox } from './inboxBench';
import { benchRemoteEcho } from './remoteEchoBench';
import { printTable, type BenchRow } from './table';
import { benchTerminal } from './terminalFloodBench';
import { benchReconcile, benchTaskWrites } from './taskStoreBench';
import { benchWorktrees } from './worktreeBench';

/**
 * `npm run bench`: every figure is printed beside a baseline measured in the same run.
 * `npm run bench -- first-paint` measures the work state's first paint alone, `-- remote` the
 * keystroke echo through an agent on another machine alone.
 */
async function main(): Promise<void> {
  const rows: BenchRow[] = [];
  if (process.argv[2] === 'first-paint') {
    rows.push(...(await benchBrowser({ firstPaintOnly: true })));
    printTable(rows);
    return;
  }
  if (process.argv[2] === 'remote') {
    rows.push(...(await benchRemoteEcho()));
    printTable(rows);
    return;
  }
  process.stderr.write('task-state writes…\n');
  rows.push(benchTaskWrites());
  process.stderr.write('reconciliation…\n');
  rows.push(benchReconcile(100_000, 8));
  rows.push(benchReconcile(100_000, 100_000));
  process.stderr.write('inbox posts…\n');
  rows.push(await benchInbox());
  process.stderr.write('exit-to-client latency…\n');
  rows.push(...(await benchExitLatency()));
  process.stderr.write('terminal flood and agent memory…\n');
  rows.push(...(await benchTerminal()));
  process.stderr.write('worktree creation and diff first paint…\n');
  rows.push(...(await benchWorktrees()));
  process.stderr.write('terminal attach and a soak of steady agents…\n');
  rows.push(...(await benchHost()));
  process.stderr.write('keystroke echo through an agent on another machine, over ssh…\n');
  rows.push(...(await benchRemoteEcho()));
  process.stderr.write('keystroke echo, flood to screen and work-state first paint in Chromium…\n');
  rows.push(...(await benchBrowser()));
  printTable(rows);
}

main().catch((error: unknown) => {
  process.stderr.write(`bench failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exitCode = 1;
});
