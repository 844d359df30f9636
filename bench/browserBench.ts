import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type Page } from '@playwright/test';
import { Terminal as HeadlessTerminal } from '@xterm/headless';
import * as pty from 'node-pty';
import { CHROMIUM_ARGS } from '../playwright.config';
import { PERFORMANCE_MARKS } from '../shared/performanceMarks';
import { startServe, type ServeProcess } from '../test-support/droverProcess';
import { seedFinishedTasks } from '../test-support/seedTasks';
import { commandProfile, connect, type BenchClient } from './benchClient';
import { median, percentile, type BenchRow } from './table';

const KEYS = 500;
const WARMUP_KEYS = 20;
const FLOOD_SCREEN_BYTES = 20 * 1024 * 1024;
const FLOOD_DONE = 'FLOOD-DONE';
const TASKS = 10_000;
const FEW_TASKS = 10;
const PAINT_RELOADS = 3;
const MB = 1024 * 1024;

const ms = (value: number) => `${value.toFixed(1)} ms`;

// ---- in the page ---------------------------------------------------------------------------------

/**
 * Installed in the page: the time of each keydown (as the browser dispatches it to xterm), and a
 * watcher on one pane's rendered rows. Runs in Chromium, so it only uses what the page has.
 */
function installProbes(): void {
  const bench = { keyAt: 0 };
  Object.assign(window, { droverBench: bench });
  document.addEventListener('keydown', () => (bench.keyAt = performance.now()), true);
}

/**
 * Resolves, in the page, with the ms from the last keydown until `count` echoed x's are drawn. The
 * keydown's time is read when the echo is seen: the key may reach the page before or after this.
 */
function echoDrawn([label, count]: [string, number]): Promise<number> {
  const rows = document.querySelector(`[aria-label="${label}"] .xterm-rows`);
  if (!rows) return Promise.reject(new Error(`no DOM rows for ${label} (the WebGL renderer draws on a canvas)`));
  const bench = (window as unknown as { droverBench: { keyAt: number } }).droverBench;
  const drawn = () => (rows.textContent?.match(/x/g)?.length ?? 0) >= count;
  return new Promise((resolve) => {
    if (drawn()) return resolve(performance.now() - bench.keyAt);
    const observer = new MutationObserver(() => {
      if (!drawn()) return;
      observer.disconnect();
      resolve(performance.now() - bench.keyAt);
    });
    observer.observe(rows, { childList: true, subtree: true, characterData: true });
  });
}

/** Resolves, in the page, with the ms from now until `marker` is drawn in the pane. */
function floodDrawn([label, marker]: [string, string]): Promise<number> {
  const rows = document.querySelector(`[aria-label="${label}"] .xterm-rows`);
  if (!rows) return Promise.reject(new Error(`no DOM rows for ${label} (the WebGL renderer draws on a canvas)`));
  const start = performance.now();
  return new Promise((resolve) => {
    const observer = new MutationObserver(() => {
      if (!rows.textContent?.includes(marker)) return;
      observer.disconnect();
      resolve(performance.now() - start);
    });
    observer.observe(rows, { childList: true, subtree: true, characterData: true });
  });
}

/**
 * Resolves, in the page, with the ms the page spent from a snapshot's arrival until the grid was
 * painted with it: from the arrival of its last part (before that part's shape check) to the
 * paint, plus the shape checks of the parts before it (not the waits for the host between parts).
 */
function paintedAfterSnapshot([projectId, names]: [string, { checked: string; painted: string }]): Promise<{ ms: number; tasks: number }> {
  const of = (name: string, type: 'mark' | 'measure') =>
    performance.getEntriesByName(name, type).filter((entry) => ((entry as PerformanceMark).detail as { projectId?: string } | null)?.projectId === projectId);
  return new Promise((resolve) => {
    const check = () => {
      const painted = of(names.painted, 'mark').at(-1) as PerformanceMark | undefined;
      const parts = of(names.checked, 'measure');
      const last = parts.at(-1);
      if (painted && last) {
        const earlierChecks = parts.slice(0, -1).reduce((sum, part) => sum + part.duration, 0);
        resolve({ ms: painted.startTime - last.startTime + earlierChecks, tasks: (painted.detail as { tasks: number }).tasks });
      } else setTimeout(check, 20);
    };
    check();
  });
}

// ---- baselines in this process -------------------------------------------------------------------

/** Raw node-pty: write one key to `cat` in a PTY and wait for the terminal driver's echo. */
async function rawEchoLatencies(keys: number, flooding: boolean): Promise<number[]> {
  const flood = flooding ? pty.spawn('/usr/bin/yes', [], { cols: 120, rows: 30 }) : null;
  flood?.onData(() => undefined);
  const echo = pty.spawn('/bin/cat', [], { cols: 120, rows: 30 });
  let waiting: (() => void) | null = null;
  echo.onData((data) => {
    if (data.includes('x')) waiting?.();
  });
  const latencies: number[] = [];
  for (let i = 0; i < keys + WARMUP_KEYS; i++) {
    const start = performance.now();
    await new Promise<void>((resolve) => {
      waiting = resolve;
      echo.write('x');
    });
    if (i >= WARMUP_KEYS) latencies.push(performance.now() - start);
  }
  echo.kill();
  flood?.kill();
  return latencies;
}

/** xterm.js itself, headless: how fast it parses the same bytes (with the PTY's \r\n) in 64 KiB writes. */
async function headlessParseSeconds(bytes: Buffer): Promise<number> {
  const terminal = new HeadlessTerminal({ cols: 120, rows: 30, scrollback: 10_000, allowProposedApi: true });
  const step = 64 * 1024;
  const start = performance.now();
  await new Promise<void>((resolve) => {
    for (let offset = 0; offset < bytes.length; offset += step) {
      const last = offset + step >= bytes.length;
      terminal.write(bytes.subarray(offset, offset + step), last ? resolve : undefined);
    }
  });
  const seconds = (performance.now() - start) / 1000;
  terminal.dispose();
  return seconds;
}

// ---- Drover through Chromium ---------------------------------------------------------------------

interface World {
  serve: ServeProcess;
  client: BenchClient;
  browser: Browser;
  page: Page;
  projectId: string;
}

async function addAgent(world: World, name: string, profileId: string): Promise<string> {
  const agent = await world.client.rpc.call('createAgent', { projectId: world.projectId, name, role: '', profileId });
  await world.page.getByRole('group', { name: `${name} terminal`, exact: true }).waitFor();
  return agent.id;
}

/** Types KEYS x's into the pane (after a warm-up) and returns each key's echo latency. */
async function typeAndTime(world: World, name: string): Promise<number[]> {
  const agentId = await addAgent(world, name, 'echo');
  await world.client.rpc.call('startAgent', { agentId, resume: false });
  const terminal = world.page.getByRole('group', { name: `${name} terminal`, exact: true });
  await terminal.click();
  const latencies: number[] = [];
  for (let i = 1; i <= KEYS + WARMUP_KEYS; i++) {
    const drawn = world.page.evaluate(echoDrawn, [`${name} terminal`, i] as [string, number]);
    await world.page.keyboard.press('x');
    const latency = await drawn;
    if (i > WARMUP_KEYS) latencies.push(latency);
  }
  await world.client.rpc.call('stopAgent', { agentId });
  return latencies;
}

function latencyRow(name: string, drover: number[], raw: number[], targetMs: number): BenchRow {
  const sorted = [...drover].sort((a, b) => a - b);
  const rawSorted = [...raw].sort((a, b) => a - b);
  const p99 = percentile(sorted, 99);
  const rawP99 = percentile(rawSorted, 99);
  return {
    name,
    drover: `p50 ${ms(percentile(sorted, 50))}, p99 ${ms(p99)}`,
    baseline: `p50 ${ms(percentile(rawSorted, 50))}, p99 ${ms(rawP99)} raw node-pty`,
    ratio: p99 / rawP99,
    target: `p99 < ${targetMs} ms`,
    met: p99 < targetMs,
  };
}

async function benchKeystrokes(world: World): Promise<BenchRow[]> {
  const quiet = await typeAndTime(world, 'Echo');
  const rawQuiet = await rawEchoLatencies(KEYS, false);
  const floodId = await addAgent(world, 'Yes', 'yes');
  await world.client.rpc.call('startAgent', { agentId: floodId, resume: false });
  const flooded = await typeAndTime(world, 'Echo under flood');
  await world.client.rpc.call('stopAgent', { agentId: floodId });
  const rawFlooded = await rawEchoLatencies(KEYS, true);
  return [
    latencyRow(`keystroke -> echo drawn, Chromium via the browser host (${KEYS} keys)`, quiet, rawQuiet, 16),
    latencyRow(`keystroke -> echo drawn while another pane floods \`yes\` (${KEYS} keys)`, flooded, rawFlooded, 50),
  ];
}

async function benchFloodToScreen(world: World, floodFile: string): Promise<BenchRow> {
  const agentId = await addAgent(world, 'Screen flood', 'screen-flood');
  const drawn = world.page.evaluate(floodDrawn, ['Screen flood terminal', FLOOD_DONE] as [string, string]);
  await world.client.rpc.call('startAgent', { agentId, resume: false });
  const seconds = (await drawn) / 1000;
  await world.client.rpc.call('stopAgent', { agentId });
  // What the pane was sent: the file as the PTY's line discipline turns \n into \r\n.
  const bytes = Buffer.from(fs.readFileSync(floodFile, 'latin1').replaceAll('\n', '\r\n'), 'latin1');
  const headless = median([await headlessParseSeconds(bytes), await headlessParseSeconds(bytes), await headlessParseSeconds(bytes)]);
  const rate = FLOOD_SCREEN_BYTES / MB / seconds;
  const headlessRate = bytes.length / MB / headless;
  const renderer = await world.page.locator('[aria-label="Screen flood terminal"] [data-renderer]').first().getAttribute('data-renderer').catch(() => null);
  return {
    name: `20 MB flood -> drawn in a pane, Chromium (${renderer ?? 'unknown'} renderer)`,
    drover: `${rate.toFixed(1)} MB/s`,
    baseline: `${headlessRate.toFixed(1)} MB/s xterm.js headless parse`,
    ratio: rate / headlessRate,
    target: '-',
    met: true,
  };
}

async function firstPaintMs(page: Page, url: string, projectId: string): Promise<{ ms: number; tasks: number }[]> {
  const runs: { ms: number; tasks: number }[] = [];
  for (let i = 0; i < PAINT_RELOADS; i++) {
    if (i === 0) await page.goto(`${url}#/project/${projectId}`);
    else await page.reload();
    const marks = { checked: PERFORMANCE_MARKS.workStatePartChecked, painted: PERFORMANCE_MARKS.workStatePainted };
    runs.push(await page.evaluate(paintedAfterSnapshot, [projectId, marks] as [string, typeof marks]));
  }
  return runs;
}

async function benchFirstPaint(root: string, dataDir: string, world: World): Promise<BenchRow> {
  const few = path.join(root, 'few');
  fs.mkdirSync(few);
  const fewProject = await world.client.rpc.call('addProject', { path: few });
  world.client.close();
  await world.serve.stop();
  seedFinishedTasks(dataDir, world.projectId, path.join(root, 'repo'), TASKS);
  seedFinishedTasks(dataDir, fewProject.id, few, FEW_TASKS);
  const serve = await startServe(['--data-dir', dataDir]);
  try {
    const url = serve.url;
    const many = await firstPaintMs(world.page, url, world.projectId);
    const some = await firstPaintMs(world.page, url, fewProject.id);
    const manyMs = median(many.map((run) => run.ms));
    const fewMs = median(some.map((run) => run.ms));
    return {
      name: `work-state grid painted after its snapshot arrived (its parts' shape checks included), ${many[0]?.tasks ?? '?'} tasks (median of ${PAINT_RELOADS} loads)`,
      drover: ms(manyMs),
      baseline: `${ms(fewMs)} with ${some[0]?.tasks ?? '?'} tasks`,
      ratio: manyMs / fewMs,
      target: '< 100 ms',
      met: manyMs < 100,
    };
  } finally {
    await serve.stop();
  }
}

/** The figures a person feels, in Chromium through the browser host, each beside a baseline of this run. */
export async function benchBrowser({ firstPaintOnly = false } = {}): Promise<BenchRow[]> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'drover-bench-browser-'));
  const repo = path.join(root, 'repo');
  const dataDir = path.join(root, 'data');
  fs.mkdirSync(repo);
  const floodFile = path.join(root, 'flood.txt');
  const line = `${'flood line of a busy agent '.repeat(3)}0123456789\n`;
  fs.writeFileSync(floodFile, line.repeat(Math.ceil(FLOOD_SCREEN_BYTES / line.length)).slice(0, FLOOD_SCREEN_BYTES));
  const serve = await startServe(['--data-dir', dataDir, '--project', repo]);
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
  try {
    const client = await connect(serve);
    const { projects } = await client.rpc.call('listProjects', {});
    const projectId = projects[0]!.id;
    for (const profile of [
      commandProfile('echo', '/bin/cat', []),
      commandProfile('yes', '/usr/bin/yes', ['a busy agent floods its terminal']),
      commandProfile('screen-flood', '/bin/sh', ['-c', `cat '${floodFile}'; echo ${FLOOD_DONE}; exec sleep 3600`]),
    ]) {
      await client.rpc.call('saveAgentProfile', { profile });
    }
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    await page.addInitScript(installProbes);
    await page.goto(`${serve.url}#/project/${projectId}`);
    await page.getByRole('region', { name: 'Agents', exact: true }).waitFor();
    const world: World = { serve, client, browser, page, projectId };
    const rows: BenchRow[] = [];
    if (!firstPaintOnly) {
      process.stderr.write('  keystroke to echo…\n');
      rows.push(...(await benchKeystrokes(world)));
      process.stderr.write('  flood to screen…\n');
      rows.push(await benchFloodToScreen(world, floodFile));
    }
    process.stderr.write('  work-state first paint…\n');
    rows.push(await benchFirstPaint(root, dataDir, world));
    return rows;
  } finally {
    await browser.close();
    await serve.stop();
    fs.rmSync(root, { recursive: true, force: true });
  }
}
