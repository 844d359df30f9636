import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { chromium } from '@playwright/test';
import type { SocketClient } from '../electron/cli/socketClient';
import { Git } from '../electron/core/git/runner';
import { Checkpoints } from '../electron/core/turns/checkpoints';
import { CHROMIUM_ARGS } from '../playwright.config';
import { git } from '../test-support/gitRepo';
import { addWorktreeAgent, withServedProject, type ServedProject } from './servedProject';
import type { BenchRow } from './table';

const run = promisify(execFile);

/** A mid-sized project: files in folders, as a checkout costs git to write them. */
const REPO_FOLDERS = 60;
const FILES_PER_FOLDER = 50;
/** Creation rounds of each side, after a warm-up round each; their medians are compared. */
const ROUNDS = 7;
/** The changed file of the diff bench: every line of it differs, so its diff has 2 × this many lines. */
const DIFF_FILE_LINES = 2_500;
const PAINT_ROUNDS = 5;
/** The Changes view's first open in a page: its code loads then, and the diff is read for the first time. */
const FIRST_OPEN_TARGET_MS = 500;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
}

function projectFiles(): Record<string, string> {
  const files: Record<string, string> = {};
  for (let folder = 0; folder < REPO_FOLDERS; folder++) {
    for (let file = 0; file < FILES_PER_FOLDER; file++) {
      files[`src/module${folder}/file${file}.ts`] = Array.from({ length: 30 }, (_, line) => `export const value${line} = ${folder * file + line};`).join('\n') + '\n';
    }
  }
  files['src/big.ts'] = Array.from({ length: DIFF_FILE_LINES }, (_, line) => `export const original${line} = ${line};`).join('\n') + '\n';
  return files;
}

async function timed(work: () => Promise<unknown>): Promise<number> {
  const start = process.hrtime.bigint();
  await work();
  return Number(process.hrtime.bigint() - start) / 1e6;
}

/** Baseline: `git worktree add` alone, as a person would type it (then removed, untimed). */
async function gitWorktreeAdd(repo: string, root: string, round: number): Promise<number> {
  const folder = path.join(root, 'plain-worktrees', `round-${round}`);
  const branch = `bench/plain-${round}`;
  const ms = await timed(() => run('git', ['worktree', 'add', '--quiet', '--no-track', '-b', branch, folder, 'main'], { cwd: repo }));
  await run('git', ['worktree', 'remove', '--force', folder], { cwd: repo });
  await run('git', ['branch', '-D', branch], { cwd: repo });
  return ms;
}

/** Drover: createAgent with its own worktree, through the running host (then removed, untimed). */
async function droverWorktree(client: SocketClient, projectId: string, round: number): Promise<number> {
  let agentId = '';
  const ms = await timed(async () => {
    agentId = (await client.rpc.call('createAgent', { projectId, name: `bench ${round}`, role: '', profileId: 'shell', workspace: { kind: 'new-worktree' } })).id;
  });
  await client.rpc.call('removeAgent', { agentId, discardWork: true });
  return ms;
}

async function benchCreation(client: SocketClient, repo: string, projectId: string, root: string): Promise<BenchRow> {
  const plain: number[] = [];
  const drover: number[] = [];
  for (let round = 0; round <= ROUNDS; round++) {
    plain.push(await gitWorktreeAdd(repo, root, round));
    drover.push(await droverWorktree(client, projectId, round));
  }
  const plainMs = median(plain.slice(1));
  const droverMs = median(drover.slice(1));
  const ratio = droverMs / plainMs;
  return {
    name: `create a worktree, setup skipped (${(REPO_FOLDERS * FILES_PER_FOLDER).toLocaleString('en')} files, median of ${ROUNDS})`,
    drover: `${droverMs.toFixed(0)} ms`,
    baseline: `${plainMs.toFixed(0)} ms git worktree add`,
    ratio,
    target: 'within 1.5x',
    met: ratio <= 1.5,
  };
}

/**
 * A turn's checkpoint (the worktree's files through copies of its index, the commits, the ref and
 * the change's line counts) in a worktree of the 3,000-file repository with one changed file,
 * beside `git stash create` on the same tree (which writes the index and tracked files as commits,
 * without untracked files or a ref). Medians of alternating rounds after a warm-up each.
 */
async function benchCheckpoint(repo: string, root: string): Promise<BenchRow> {
  const folder = path.join(root, 'checkpoint-worktree');
  await run('git', ['worktree', 'add', '--quiet', '--no-track', '-b', 'bench/checkpoints', folder, 'main'], { cwd: repo });
  fs.appendFileSync(path.join(folder, 'src', 'module0', 'file0.ts'), 'export const changed = true;\n');
  const checkpoints = new Checkpoints(new Git(process.env));
  // As Drover reaches an agent's worktree: through the git dir the repository records for it.
  const checkout = { workTree: folder, gitDir: git(folder, 'rev-parse', '--absolute-git-dir') };
  const head = git(folder, 'rev-parse', 'HEAD');
  const stash: number[] = [];
  const drover: number[] = [];
  for (let round = 0; round <= ROUNDS; round++) {
    stash.push(await timed(() => run('git', ['stash', 'create'], { cwd: folder })));
    drover.push(await timed(() => checkpoints.take(checkout, `bench ${round}`, `refs/drover/checkpoints/a-bench/${round}`, head)));
  }
  const stashMs = median(stash.slice(1));
  const droverMs = median(drover.slice(1));
  const ratio = droverMs / stashMs;
  return {
    name: `checkpoint of a turn, ${(REPO_FOLDERS * FILES_PER_FOLDER).toLocaleString('en')} files, 1 changed (median of ${ROUNDS})`,
    drover: `${droverMs.toFixed(0)} ms`,
    baseline: `${stashMs.toFixed(0)} ms git stash create`,
    ratio,
    target: 'within 1.5x',
    met: ratio <= 1.5,
  };
}

/**
 * First paint of the changes view for a diff of 2 × DIFF_FILE_LINES lines: from the click on
 * "Changes" to the first frame painted after its first diff line is in the page. The baseline is
 * the same diff as plain text in a <pre>, in the same browser: what showing it at all costs.
 */
async function benchDiffPaint(served: ServedProject): Promise<BenchRow[]> {
  const { serve, client, projectId } = served;
  const { agentId, folder: tree } = await addWorktreeAgent(served, 'painter');
  fs.writeFileSync(path.join(tree, 'src', 'big.ts'), Array.from({ length: DIFF_FILE_LINES }, (_, line) => `export const changed${line} = '${line}';`).join('\n') + '\n');
  const patch = git(tree, 'diff', 'HEAD');
  const diffLines = patch.split('\n').filter((line) => /^[+-](?![+-]{2} )/.test(line)).length;

  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
  try {
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    await page.goto(`${serve.url}#/project/${projectId}`);
    const pane = page.getByRole('region', { name: 'painter', exact: true });
    const changes = pane.getByRole('button', { name: 'Changes' });
    await changes.waitFor();
    // The first open starts once the page has shown the pane, its terminal made: the button is there
    // a moment before, and a click then timed the page's own start (the terminal made in the same
    // frames) as much as the view.
    await pane.locator('.xterm-screen').waitFor();
    const paints: number[] = [];
    for (let round = 0; round <= PAINT_ROUNDS; round++) {
      await page.evaluate(() => {
        const state = window as unknown as { paintMs?: Promise<number> };
        state.paintMs = new Promise((resolve) => {
          const button = [...document.querySelectorAll('button')].find((candidate) => candidate.textContent === 'Changes');
          button?.addEventListener(
            'click',
            () => {
              const clicked = performance.now();
              const observer = new MutationObserver(() => {
                if (!document.querySelector('.changes-diff .diff-line')) return;
                observer.disconnect();
                requestAnimationFrame(() => requestAnimationFrame(() => resolve(performance.now() - clicked)));
              });
              observer.observe(document.body, { childList: true, subtree: true });
            },
            { once: true, capture: true },
          );
        });
      });
      await changes.click();
      paints.push(await page.evaluate(() => (window as unknown as { paintMs: Promise<number> }).paintMs));
      await page.keyboard.press('Escape');
      await page.getByRole('dialog', { name: 'Changes of painter' }).waitFor({ state: 'detached' });
    }
    const plain = await page.evaluate((text) => {
      const started = performance.now();
      const pre = document.createElement('pre');
      pre.textContent = text;
      document.body.append(pre);
      return new Promise<number>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve(performance.now() - started))));
    }, patch);
    const warm = median(paints.slice(1));
    const first = paints[0] ?? NaN;
    // The part of it the host spends reading the diff with git.
    const hostReads: number[] = [];
    for (let round = 0; round < PAINT_ROUNDS; round++) hostReads.push(await timed(() => client.rpc.call('getWorktreeDiff', { agentId })));
    const hostMs = median(hostReads);
    const target = 1_000;
    return [
      {
        name: `changes view first paint, ${diffLines.toLocaleString('en')}-line diff (median of ${PAINT_ROUNDS})`,
        drover: `${warm.toFixed(0)} ms (host's git diff ${hostMs.toFixed(0)} ms)`,
        baseline: `${plain.toFixed(0)} ms the diff as plain text`,
        ratio: warm / Math.max(plain, 1),
        target: `under ${target} ms`,
        met: warm < target,
      },
      {
        name: 'changes view first paint, first open',
        drover: `${first.toFixed(0)} ms`,
        baseline: `${plain.toFixed(0)} ms the diff as plain text`,
        ratio: first / Math.max(plain, 1),
        target: `under ${FIRST_OPEN_TARGET_MS} ms`,
        met: first < FIRST_OPEN_TARGET_MS,
      },
    ];
  } finally {
    await browser.close();
    await client.rpc.call('removeAgent', { agentId, discardWork: true });
  }
}

export async function benchWorktrees(): Promise<BenchRow[]> {
  return withServedProject(projectFiles(), async (served) => {
    const { client, repo, root, projectId } = served;
    const creation = await benchCreation(client, repo, projectId, root);
    const checkpoint = await benchCheckpoint(repo, root);
    return [creation, checkpoint, ...(await benchDiffPaint(served))];
  });
}
