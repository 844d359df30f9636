import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from '@playwright/test';
import { AgentTerminal } from '../electron/core/sessions/agentTerminal';
import { ScrollbackLog } from '../electron/core/sessions/scrollbackLog';
import { CHROMIUM_ARGS } from '../playwright.config';
import { DEFAULT_APP_SETTINGS } from '../shared/appSettings';
import { startServe } from '../test-support/droverProcess';
import { commandProfile, connect } from './benchClient';
import { median, type BenchRow } from './table';

const SCROLLBACK_LINES = 5_000;
const ATTACH_ROUNDS = 10;
const SOAK_AGENTS = 40;
const LINES_PER_SECOND = 50;
/**
 * The soak measures from here: every mirror's scrollback (the default 5,000 lines, 100 s at 50
 * lines/s) full, and 20 s more. Before that, memory grows by design as the scrollback fills.
 */
const SOAK_WARM_UP_MS = (DEFAULT_APP_SETTINGS.terminalScrollbackLines / LINES_PER_SECOND + 20) * 1000;
const MB = 1024 * 1024;

function rssMb(pid: number): number {
  return Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
}

/** Lines a busy agent prints: coloured, of varying length, with a prompt now and then. */
function agentOutput(lines: number): string {
  let text = '';
  for (let i = 0; i < lines; i++) {
    text += i % 40 === 0 ? `\u001b[1;32m❯\u001b[0m npm test -- --grep case-${i}\r\n` : `\u001b[3${i % 8}m  ✓ case ${i}\u001b[0m ${'does what it says '.repeat(1 + (i % 5))}(${i % 97} ms)\r\n`;
  }
  return text;
}

/**
 * What a window waits for when it attaches: the host serializes its mirror of a terminal holding
 * 5,000 lines of scrollback. Beside it, what reading the terminal's scrollback file costs (what
 * attaching cost before snapshots, when the page replayed the file's raw tail itself).
 */
async function benchAttach(): Promise<BenchRow> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'drover-bench-attach-'));
  try {
    const file = path.join(root, 'scrollback.log');
    const terminal = new AgentTerminal({ scrollbackFile: file, scrollbackLines: SCROLLBACK_LINES, cols: 120, rows: 32 });
    terminal.write(agentOutput(SCROLLBACK_LINES + 500));
    terminal.flush();
    await terminal.screen();
    const attachMs: number[] = [];
    let snapshotBytes = 0;
    for (let round = 0; round <= ATTACH_ROUNDS; round++) {
      const start = performance.now();
      const attached = await terminal.attach({ send: () => {} });
      const elapsed = performance.now() - start;
      attached.detach();
      snapshotBytes = Buffer.byteLength(attached.data);
      if (round > 0) attachMs.push(elapsed);
    }
    terminal.dispose();
    const tailMs: number[] = [];
    for (let round = 0; round <= ATTACH_ROUNDS; round++) {
      const start = performance.now();
      ScrollbackLog.open(file, () => {}).log.close();
      if (round > 0) tailMs.push(performance.now() - start);
    }
    const attach = median(attachMs);
    const tail = median(tailMs);
    return {
      name: `attach a terminal with ${SCROLLBACK_LINES.toLocaleString('en')} lines of scrollback, host side (snapshot ${(snapshotBytes / MB).toFixed(1)} MB; median of ${ATTACH_ROUNDS})`,
      drover: `${attach.toFixed(1)} ms`,
      baseline: `${tail.toFixed(1)} ms scrollback file read`,
      ratio: attach / tail,
      target: '< 50 ms',
      met: attach < 50,
    };
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}

/** Minutes the soak runs, its warm-up included: 10 by default (the weekly bench); `.ci/run` runs a shorter one. */
function soakMinutes(): number {
  const given = Number(process.env.DROVER_BENCH_SOAK_MINUTES);
  return Number.isFinite(given) && given > 0 ? given : 10;
}

/**
 * 40 agents printing steadily into the host while a page shows the project: the host's RSS and the
 * page's JS heap once every mirror has filled its scrollback, and at the end (at least a minute
 * later, whatever the soak's minutes say). Growth between the two is what a leak looks like.
 */
async function benchSoak(): Promise<BenchRow[]> {
  const minutes = soakMinutes();
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'drover-bench-soak-'));
  const repo = path.join(root, 'repo');
  fs.mkdirSync(repo);
  const serve = await startServe(['--data-dir', path.join(root, 'data'), '--project', repo]);
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
  try {
    const client = await connect(serve);
    const projectId = (await client.rpc.call('listProjects', {})).projects[0]!.id;
    // One light process per agent (perl is in every Debian): no fork per line.
    const printer = `$| = 1; for ($i = 1; ; $i++) { printf("\\e[36m%s\\e[0m line %d of a steady agent, with some words to fill it\\n", scalar localtime, $i); select(undef, undef, undef, ${1 / LINES_PER_SECOND}); }`;
    await client.rpc.call('saveAgentProfile', { profile: commandProfile('steady', '/usr/bin/perl', ['-e', printer]) });
    for (let n = 1; n <= SOAK_AGENTS; n++) {
      const agent = await client.rpc.call('createAgent', { projectId, name: `Steady ${n}`, role: '', profileId: 'steady' });
      await client.rpc.call('startAgent', { agentId: agent.id, resume: false });
    }
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    await page.goto(`${serve.url}#/project/${projectId}`);
    await page.getByRole('region', { name: 'Agents', exact: true }).waitFor();
    const heapMb = async () => (await page.evaluate(() => (performance as unknown as { memory: { usedJSHeapSize: number } }).memory.usedJSHeapSize)) / MB;
    const warmUpMs = SOAK_WARM_UP_MS;
    const soakMs = Math.max(minutes * 60_000, warmUpMs + 60_000);
    await new Promise((resolve) => setTimeout(resolve, warmUpMs));
    const rssStart = rssMb(serve.hostPid());
    const heapStart = await heapMb();
    await new Promise((resolve) => setTimeout(resolve, soakMs - warmUpMs));
    const rssEnd = rssMb(serve.hostPid());
    const heapEnd = await heapMb();
    client.close();
    return [
      {
        name: `host RSS, ${SOAK_AGENTS} agents printing ${LINES_PER_SECOND} lines/s each for ${(soakMs / 60_000).toFixed(0)} min (start: ${(warmUpMs / 1000).toFixed(0)} s in)`,
        drover: `${rssEnd.toFixed(0)} MB at the end`,
        baseline: `${rssStart.toFixed(0)} MB at the start`,
        ratio: rssEnd / rssStart,
        target: 'flat (<= 1.1x), under 300 MB',
        met: rssEnd / rssStart <= 1.1 && rssEnd < 300,
      },
      {
        name: `the page's JS heap meanwhile (the project open, the panes in view attached)`,
        drover: `${heapEnd.toFixed(0)} MB at the end`,
        baseline: `${heapStart.toFixed(0)} MB at the start`,
        ratio: heapEnd / heapStart,
        target: '-',
        met: true,
      },
    ];
  } finally {
    await browser.close();
    await serve.stop();
    fs.rmSync(root, { recursive: true, force: true });
  }
}

/** The lasting host's figures: attaching to a terminal, and memory over a long steady run. */
export async function benchHost(): Promise<BenchRow[]> {
  return [await benchAttach(), ...(await benchSoak())];
}
