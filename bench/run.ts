import { benchBrowser } from './browserBench';
import { benchExitLatency } from './exitLatencyBench';
import { benchHost } from './hostBench';
import { benchInbox } from './inboxBench';
import { benchOverlaps } from './overlapBench';
import { benchRemoteEcho } from './remoteEchoBench';
import { printTable, type BenchRow } from './table';
import { benchTerminal } from './terminalFloodBench';
import { benchReconcile, benchTaskWrites } from './taskStoreBench';
import { benchWorktrees } from './worktreeBench';

interface BenchPart {
  /** What stderr says while it runs. */
  title: string;
  run(): Promise<BenchRow[]>;
}

/** The bench's parts, in the order `npm run bench` runs them; each can run alone by its name. */
const PARTS: Record<string, BenchPart> = {
  tasks: { title: 'task-state writes and reconciliation', run: async () => [benchTaskWrites(), benchReconcile(100_000, 8), benchReconcile(100_000, 100_000)] },
  inbox: { title: 'inbox posts', run: async () => [await benchInbox()] },
  exit: { title: 'exit-to-client latency', run: benchExitLatency },
  terminal: { title: 'terminal flood and agent memory', run: benchTerminal },
  worktrees: { title: 'worktree creation, checkpoints and the changes view', run: benchWorktrees },
  overlaps: { title: 'the overlap radar across 8 worktrees', run: benchOverlaps },
  host: { title: 'terminal attach and a soak of steady agents', run: benchHost },
  remote: { title: 'keystroke echo through an agent on another machine, over ssh', run: benchRemoteEcho },
  browser: { title: 'keystroke echo, flood to screen and work-state first paint in Chromium', run: () => benchBrowser() },
  keys: { title: 'keystroke echo in Chromium, beside the frame floor', run: () => benchBrowser(['keystrokes']) },
  'first-paint': { title: 'work-state first paint in Chromium', run: () => benchBrowser(['first-paint']) },
};

/** What `npm run bench` runs without a name: every part but keys and first-paint, which browser includes. */
const ALL = ['tasks', 'inbox', 'exit', 'terminal', 'worktrees', 'overlaps', 'host', 'remote', 'browser'];

/**
 * `npm run bench`: every figure is printed beside a baseline measured in the same run.
 * `npm run bench -- PART [PART…]` runs only the parts named (see PARTS), e.g. `-- terminal` the
 * flood and the agents' memory, `-- remote` the keystroke echo through another machine, `-- keys`
 * the keystroke echo in Chromium.
 */
async function main(): Promise<void> {
  const names = process.argv.length > 2 ? process.argv.slice(2) : ALL;
  const unknown = names.filter((name) => !(name in PARTS));
  if (unknown.length > 0) throw new Error(`no bench part named ${unknown.join(', ')}; the parts are ${Object.keys(PARTS).join(', ')}`);
  const rows: BenchRow[] = [];
  for (const name of names) {
    const part = PARTS[name] as BenchPart;
    process.stderr.write(`${part.title}…\n`);
    rows.push(...(await part.run()));
  }
  printTable(rows);
}

main().catch((error: unknown) => {
  process.stderr.write(`bench failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exitCode = 1;
});
