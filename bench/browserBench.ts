import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
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
/**
 * A fast typist's pace: a key every 50 ms (20 a second), or once the last one's echo is drawn if
 * that takes longer. Typed back to back (a key a few ms after the last echo was drawn) nearly every
 * key would come while Chromium has a frame pending (the hover update it draws after any layout
 * under a resting pointer, here the echo's), and a discrete input with a frame pending holds the
 * page's tasks (the echo's WebSocket message among them) until that frame: a wait no person's
 * typing meets, and none of Drover's.
 */
const KEY_INTERVAL_MS = 50;
/** A frame at 60 Hz. */
const FRAME_MS = 1000 / 60;
const FLOOD_SCREEN_BYTES = 20 * 1024 * 1024;
const FLOOD_DONE = 'FLOOD-DONE';
const TASKS = 10_000;
const FEW_TASKS = 10;
const PAINT_RELOADS = 3;
const MB = 1024 * 1024;

const ms = (value: number) => `${value.toFixed(1)} ms`;

// ---- in the page ---------------------------------------------------------------------------------

/**
 * When the page saw a key's hops: its keydown, its input frame sent, the first frame of its pane's
 * output after that; and when another pane watched (see watchOtherPane) last drew its rows.
 */
interface KeyHops {
  keyAt: number;
  sentAt: number;
  echoAt: number;
  otherDrawnAt: number;
}

/**
 * A key's latency, and where it went (ms from the keydown): sent, its echo back in the page, drawn;
 * and whether the other pane drew its rows between the key and its echo (a frame, and the parse
 * before it, the echo may have waited for).
 */
interface KeyTiming {
  latency: number;
  sent: number;
  echoed: number;
  otherDrew: boolean;
}

/**
 * Installed in the page: the time of each keydown (as the browser dispatches it to xterm), of the
 * input frame that carried it to the host, and of the first output frame of the same agent after
 * that (its echo). Runs in Chromium, so it only uses what the page has.
 */
function installProbes(): void {
  const bench: KeyHops & { typedAgent: string | null } = { keyAt: 0, sentAt: 0, echoAt: 0, otherDrawnAt: 0, typedAgent: null };
  Object.assign(window, { droverBench: bench });
  document.addEventListener('keydown', () => (bench.keyAt = performance.now()), true);
  const echoed = ({ data }: MessageEvent<unknown>) => {
    if (bench.echoAt || !(data instanceof ArrayBuffer)) return;
    const bytes = new Uint8Array(data);
    // A terminal frame: kind 1, then the agent id's length and the agent id (shared/streamFrames.ts).
    if (bytes[0] === 1 && String.fromCharCode(...bytes.subarray(2, 2 + (bytes[1] ?? 0))) === bench.typedAgent) bench.echoAt = performance.now();
  };
  // Heard before the page's own handler, which writes the echo to its xterm.
  window.WebSocket = class ProbedWebSocket extends WebSocket {
    constructor(...args: ConstructorParameters<typeof WebSocket>) {
      super(...args);
      this.addEventListener('message', echoed);
    }
    override send(frame: Parameters<WebSocket['send']>[0]): void {
      if (typeof frame === 'string' && frame.includes('"writeAgentInput"')) {
        bench.sentAt = performance.now();
        bench.echoAt = 0;
        bench.typedAgent = /"agentId":"([^"]+)"/.exec(frame)?.[1] ?? null;
      }
      super.send(frame);
    }
  };
}

/**
 * The frame floor: an element that, on each keydown, draws one more x in the next frame, as xterm
 * draws an echo (its rows change in an animation frame). It takes the focus, and keeps the keys from
 * the page's own handlers: what is measured is the page's frames, not what a handler does with a key.
 * Runs in Chromium.
 */
function installFloor(): void {
  const drawn = document.createElement('div');
  drawn.id = 'floor';
  drawn.tabIndex = 0;
  drawn.style.cssText = 'position: fixed; top: 0; left: 0; z-index: 1000; background: white';
  document.body.append(drawn);
  drawn.addEventListener('keydown', (event) => {
    event.stopPropagation();
    requestAnimationFrame(() => drawn.append('x'));
  });
  drawn.focus();
}

/** Where the x's typed into a pane are drawn (its DOM renderer's rows). */
const paneRows = (label: string) => `[aria-label="${label}"] .xterm-rows`;

/**
 * Resolves, in the page, once `count` x's are drawn in `selector`: the ms from the last keydown, and
 * when (from that keydown) its input was sent and its echo came. The keydown's time is read when
 * the x is seen: the key may reach the page before or after this.
 */
function xsDrawn([selector, count]: [string, number]): Promise<KeyTiming> {
  const rows = document.querySelector(selector);
  if (!rows) return Promise.reject(new Error(`nothing drawn at ${selector} (the WebGL renderer draws on a canvas)`));
  const bench = (window as unknown as { droverBench: KeyHops }).droverBench;
  const drawn = () => (rows.textContent?.match(/x/g)?.length ?? 0) >= count;
  const timing = (): KeyTiming => ({
    latency: performance.now() - bench.keyAt,
    sent: bench.sentAt - bench.keyAt,
    echoed: bench.echoAt - bench.keyAt,
    otherDrew: bench.otherDrawnAt > bench.keyAt,
  });
  return new Promise((resolve) => {
    if (drawn()) return resolve(timing());
    const observer = new MutationObserver(() => {
      if (!drawn()) return;
      observer.disconnect();
      resolve(timing());
    });
    observer.observe(rows, { childList: true, subtree: true, characterData: true });
  });
}

/**
 * Notes, in the page, when the rows at `selector` are drawn (watched before the keys' own rows, its
 * note comes first when both are drawn in one frame).
 */
function watchOtherPane(selector: string): void {
  const rows = document.querySelector(selector);
  if (!rows) throw new Error(`nothing drawn at ${selector}`);
  const bench = (window as unknown as { droverBench: KeyHops }).droverBench;
  new MutationObserver(() => (bench.otherDrawnAt = performance.now())).observe(rows, { childList: true, subtree: true, characterData: true });
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

/**
 * Presses x KEYS times (after a warm-up) at a fast typist's pace, and returns the ms from each
 * keydown until its x is drawn in `selector`, with its hops.
 */
async function typeAndTime(page: Page, selector: string): Promise<KeyTiming[]> {
  const latencies: KeyTiming[] = [];
  for (let i = 1; i <= KEYS + WARMUP_KEYS; i++) {
    const pressedAt = performance.now();
    const drawn = page.evaluate(xsDrawn, [selector, i] as [string, number]);
    await page.keyboard.press('x');
    const latency = await drawn;
    if (i > WARMUP_KEYS) latencies.push(latency);
    await sleep(pressedAt + KEY_INTERVAL_MS - performance.now());
  }
  return latencies;
}

/** Types into a new agent's pane running `cat` and returns each key's echo latency, with its hops. */
async function typeIntoAgent(world: World, name: string): Promise<KeyTiming[]> {
  const agentId = await addAgent(world, name, 'echo');
  await world.client.rpc.call('startAgent', { agentId, resume: false });
  await world.page.getByRole('group', { name: `${name} terminal`, exact: true }).click();
  const latencies = await typeAndTime(world.page, paneRows(`${name} terminal`));
  await world.client.rpc.call('stopAgent', { agentId });
  return latencies;
}

/** The keys into the frame floor's element in `page` (see installFloor), then the element removed. */
async function floorIn(page: Page): Promise<KeyTiming[]> {
  await page.evaluate(installFloor);
  try {
    return await typeAndTime(page, '#floor');
  } finally {
    await page.evaluate(() => document.getElementById('floor')?.remove());
  }
}

/** The same keys in a page of its own with no terminal: each key to the frame that draws it. */
async function frameFloor(browser: Browser): Promise<KeyTiming[]> {
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  try {
    await page.evaluate(installProbes);
    return await floorIn(page);
  } finally {
    await page.close();
  }
}

interface Spread {
  p50: number;
  p99: number;
}

function spreadOf(latencies: number[]): Spread {
  const sorted = [...latencies].sort((a, b) => a - b);
  return { p50: percentile(sorted, 50), p99: percentile(sorted, 99) };
}

const spreadText = ({ p50, p99 }: Spread) => `p50 ${ms(p50)}, p99 ${ms(p99)}`;

function floorRow(where: string, floor: Spread): BenchRow {
  return {
    name: `frame floor: keydown -> next drawn frame, Chromium, ${where} (${KEYS} keys, one per ${KEY_INTERVAL_MS} ms)`,
    drover: spreadText(floor),
    baseline: `a 60 Hz frame, ${ms(FRAME_MS)}`,
    ratio: floor.p99 / FRAME_MS,
    target: '-',
    met: true,
  };
}

function echoRow(name: string, drover: Spread, floor: Spread, raw: Spread, target: { p99: number; p50?: number }): BenchRow {
  return {
    name,
    drover: spreadText(drover),
    baseline: `floor ${spreadText(floor)} (the PTY's own echo: ${spreadText(raw)})`,
    ratio: drover.p99 / floor.p99,
    target: `p99 < ${target.p99} ms${target.p50 === undefined ? '' : `, p50 < ${target.p50} ms`}`,
    met: drover.p99 < target.p99 && (target.p50 === undefined || drover.p50 < target.p50),
  };
}

/**
 * With DROVER_BENCH_TRACE=FILE, a Chromium performance trace of `run` is written to FILE (open it in
 * the DevTools Performance panel): what the page's main thread does while keys are typed.
 */
async function traced<T>(world: World, run: () => Promise<T>): Promise<T> {
  const file = process.env.DROVER_BENCH_TRACE;
  if (!file) return run();
  await world.browser.startTracing(world.page, { path: file, screenshots: false });
  try {
    return await run();
  } finally {
    await world.browser.stopTracing();
  }
}

const latenciesOf = (timings: KeyTiming[]) => timings.map((timing) => timing.latency);

/**
 * Prints on stderr where the slowest 1% of the keys (and, beside them, the median key) spent their
 * time: to the input's frame sent, the round trip through the host and PTY to the echo's frame in
 * the page, and the page's write and draw of it.
 */
function printHops(name: string, timings: KeyTiming[]): void {
  const sorted = [...timings].sort((a, b) => a.latency - b.latency);
  const hops = ({ latency, sent, echoed }: KeyTiming) => `${ms(latency)} = sent ${ms(sent)} + host ${ms(echoed - sent)} + page ${ms(latency - echoed)}`;
  const slowest = sorted.slice(Math.floor(sorted.length * 0.99));
  const otherDrew = timings.filter((timing) => timing.otherDrew).length;
  process.stderr.write(
    `  ${name}: median key ${hops(sorted[Math.floor(sorted.length / 2)] as KeyTiming)}; another pane drawn between key and echo: ${otherDrew} of ${timings.length} keys; slowest 1%:\n` +
      slowest.map((timing) => `    ${hops(timing)}${timing.otherDrew ? ' (another pane drawn meanwhile)' : ''}\n`).join(''),
  );
}

async function benchKeystrokes(world: World): Promise<BenchRow[]> {
  const floor = spreadOf(latenciesOf(await frameFloor(world.browser)));
  const quietTimings = await typeIntoAgent(world, 'Echo');
  printHops('quiet', quietTimings);
  const quiet = spreadOf(latenciesOf(quietTimings));
  const rawQuiet = spreadOf(await rawEchoLatencies(KEYS, false));
  const floodId = await addAgent(world, 'Yes', 'yes');
  await world.client.rpc.call('startAgent', { agentId: floodId, resume: false });
  const floodRows = paneRows('Yes terminal');
  await world.page.locator(floodRows).waitFor({ state: 'attached' });
  await world.page.evaluate(watchOtherPane, floodRows);
  // The same page's frames while the other pane floods, with no echo to wait for: what the keys beside the flood cannot go under.
  const floodedFloor = spreadOf(latenciesOf(await floorIn(world.page)));
  const floodedTimings = await traced(world, () => typeIntoAgent(world, 'Echo under flood'));
  printHops('beside a flood', floodedTimings);
  const flooded = spreadOf(latenciesOf(floodedTimings));
  await world.client.rpc.call('stopAgent', { agentId: floodId });
  const rawFlooded = spreadOf(await rawEchoLatencies(KEYS, true));
  const pace = `${KEYS} keys, one per ${KEY_INTERVAL_MS} ms`;
  return [
    floorRow('an empty page', floor),
    echoRow(`keystroke -> echo drawn, Chromium via the browser host (${pace})`, quiet, floor, rawQuiet, { p99: 20, p50: 12 }),
    floorRow("Drover's page while a pane floods `yes`", floodedFloor),
    echoRow(`keystroke -> echo drawn while another pane floods \`yes\` (${pace})`, flooded, floodedFloor, rawFlooded, { p99: 33 }),
  ];
}

async function benchFloodToScreen(world: World, floodFile: string): Promise<BenchRow> {
  const agentId = await addAgent(world, 'Screen flood', 'screen-flood');
  // The pane makes its terminal once it has come into view: the rows are watched from then on.
  await world.page.locator('[aria-label="Screen flood terminal"] .xterm-rows').waitFor({ state: 'attached' });
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

/** The parts of the browser bench, in the order they run. */
export type BrowserFigure = 'keystrokes' | 'flood-to-screen' | 'first-paint';

/** The figures a person feels, in Chromium through the browser host, each beside a baseline of this run. */
export async function benchBrowser(figures: readonly BrowserFigure[] = ['keystrokes', 'flood-to-screen', 'first-paint']): Promise<BenchRow[]> {
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
    if (figures.includes('keystrokes')) {
      process.stderr.write('  keystroke to echo…\n');
      rows.push(...(await benchKeystrokes(world)));
    }
    if (figures.includes('flood-to-screen')) {
      process.stderr.write('  flood to screen…\n');
      rows.push(await benchFloodToScreen(world, floodFile));
    }
    if (figures.includes('first-paint')) {
      process.stderr.write('  work-state first paint…\n');
      rows.push(await benchFirstPaint(root, dataDir, world));
    }
    return rows;
  } finally {
    await browser.close();
    await serve.stop();
    fs.rmSync(root, { recursive: true, force: true });
  }
}
