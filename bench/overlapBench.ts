import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { git } from '../test-support/gitRepo';
import { addWorktreeAgent, withServedProject, type ServedProject } from './servedProject';
import type { BenchRow } from './table';

const AGENTS = 8;
const FILES = 16;
const FILE_LINES = 400;
/** Each agent rewrites this many lines in each of its files: 8 agents × 5 files × 125 lines = 5,000. */
const FILES_PER_AGENT = 5;
const LINES_PER_FILE = 125;
const TARGET_CPU_MS = 1_000;
/** The host counts as done with a burst once a window this long costs it less than QUIET_CPU_MS. */
const QUIET_WINDOW_MS = 1_000;
const QUIET_CPU_MS = 20;

const CLOCK_TICKS = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;

/** CPU a process spent (user and system), with that of the children it waited for (its git commands), in ms. Linux only. */
function cpuMs(pid: number | 'self'): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = [11, 12, 13, 14].reduce((sum, index) => sum + Number(fields[index]), 0);
  return (ticks * 1000) / CLOCK_TICKS;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The host's CPU from `start` until it went quiet (its watchers fired, the radar computed and announced). */
async function cpuUntilQuiet(pid: number, start: number): Promise<number> {
  for (let last = cpuMs(pid); ; ) {
    await pause(QUIET_WINDOW_MS);
    const now = cpuMs(pid);
    if (now - last < QUIET_CPU_MS) return now - start;
    last = now;
  }
}

const fileName = (index: number) => `src/part${index % FILES}.ts`;
const original = (line: number) => `export const value${line} = ${line};`;

/** The file as agent `agent` rewrites it: its first lines its own (so its neighbours overlap it there). */
function rewritten(agent: number, round: number): string {
  return Array.from({ length: FILE_LINES }, (_, line) => (line < LINES_PER_FILE ? `export const value${line} = ${agent * 1000 + round};` : original(line))).join('\n') + '\n';
}

async function addAgents(served: ServedProject): Promise<string[]> {
  const folders: string[] = [];
  for (let agent = 0; agent < AGENTS; agent++) folders.push((await addWorktreeAgent(served, `agent ${agent}`)).folder);
  return folders;
}

/** Every agent changes its files: the first ones committed, the rest left uncommitted. */
function changeEveryAgent(folders: readonly string[], round: number): void {
  for (const [agent, folder] of folders.entries()) {
    for (let file = 0; file < FILES_PER_AGENT; file++) fs.writeFileSync(path.join(folder, fileName(agent + file)), rewritten(agent, round));
    git(folder, 'commit', '--quiet', '-m', `round ${round}`, '--', ...[0, 1, 2].map((file) => fileName(agent + file)));
  }
}

/**
 * The radar's cost in a project of 8 agents in worktrees that change 5,000 lines between them
 * (neighbours share 4 files, so every neighbouring pair overlaps and conflicts): the host's CPU,
 * its git included, for a burst in which every worktree changes (nothing cached), and for one in
 * which one file of one agent changes. The baseline is what reading those changes costs at all:
 * `git diff -U0` of each worktree from its base, run by hand.
 */
export async function benchOverlaps(): Promise<BenchRow[]> {
  const files: Record<string, string> = {};
  for (let file = 0; file < FILES; file++) files[fileName(file)] = Array.from({ length: FILE_LINES }, (_, line) => original(line)).join('\n') + '\n';
  return withServedProject(files, async (served) => {
    const { repo, serve, client, projectId } = served;
    const folders = await addAgents(served);
    const pid = serve.hostPid();
    await cpuUntilQuiet(pid, 0);

    const everyStart = cpuMs(pid);
    changeEveryAgent(folders, 1);
    const everyMs = await cpuUntilQuiet(pid, everyStart);
    const { pairs } = await client.rpc.call('listOverlaps', { projectId });
    const changedLines = AGENTS * FILES_PER_AGENT * LINES_PER_FILE;

    const oneStart = cpuMs(pid);
    fs.appendFileSync(path.join(folders[0] ?? '', fileName(0)), 'export const more = 1;\n');
    const oneMs = await cpuUntilQuiet(pid, oneStart);

    const base = git(repo, 'rev-parse', 'main');
    const diffStart = cpuMs('self');
    for (const folder of folders) git(folder, 'diff', '-U0', base);
    const diffMs = cpuMs('self') - diffStart;
    return [
      {
        name: `overlap radar, ${AGENTS} agents, ${changedLines.toLocaleString('en')} changed lines, every worktree changed (${pairs.length} pairs; host CPU with git)`,
        drover: `${everyMs.toFixed(0)} ms`,
        baseline: `${diffMs.toFixed(0)} ms git diff -U0 of each worktree`,
        ratio: everyMs / Math.max(diffMs, 1),
        target: `under ${TARGET_CPU_MS} ms`,
        met: everyMs < TARGET_CPU_MS,
      },
      {
        name: `overlap radar, same project, one agent's file changed (host CPU with git)`,
        drover: `${oneMs.toFixed(0)} ms`,
        baseline: `${diffMs.toFixed(0)} ms git diff -U0 of each worktree`,
        ratio: oneMs / Math.max(diffMs, 1),
        target: `under ${TARGET_CPU_MS} ms`,
        met: oneMs < TARGET_CPU_MS,
      },
    ];
  });
}
