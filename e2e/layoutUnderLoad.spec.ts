import path from 'node:path';
import Database from 'better-sqlite3';
import type { Locator, Page } from '@playwright/test';
import { connectToDrover } from '../electron/cli/socketClient';
import { agentPane, openWorkspace, saveProfiles, screenshot, SHELL_AGENT_PROFILE, stateBadge } from './support/agents';
import { expect, test, type DroverWorld } from './support/droverHost';
import { runTask } from './support/workState';

const AGENTS = ['ada', 'bob', 'cy', 'dee', 'eve'];
const ENDINGS = [
  { state: 'succeeded', exitCode: 0, reason: null },
  { state: 'failed', exitCode: 2, reason: 'exit code 2' },
  { state: 'cancelled', exitCode: null, reason: 'cancelled by request' },
  { state: 'interrupted', exitCode: null, reason: 'app-restart' },
] as const;

/** 50 finished tasks of the agents, each way a task ends, written while the host is stopped; its boot posts their results. */
function seedAgentResults(dataDir: string, projectId: string, folder: string, agentIds: readonly string[]): void {
  const db = new Database(path.join(dataDir, 'projects', projectId, 'state.sqlite'));
  try {
    const seq = (db.prepare('SELECT COALESCE(MAX(seq), 0) AS seq FROM tasks').get() as { seq: number }).seq + 1000;
    const insert = db.prepare(
      `INSERT INTO tasks (id, owner_agent_id, label, command, cwd, state, exit_code, reason, attempt, created_at, started_at, ended_at, log_path, seq)
       VALUES (@id, @owner, @label, @command, @cwd, @state, @exitCode, @reason, 1, @at, @at, @at, @logPath, @seq)`,
    );
    db.transaction(() => {
      for (let i = 0; i < 50; i++) {
        const ending = ENDINGS[i % ENDINGS.length] as (typeof ENDINGS)[number];
        const id = `t-layout${String(i).padStart(4, '0')}`;
        const at = Date.now() - (50 - i) * 60_000;
        insert.run({ id, owner: agentIds[i % agentIds.length], label: `job ${i}`, command: `make check PART=${i}`, cwd: folder, ...ending, at, logPath: path.join(dataDir, `${id}.log`), seq: seq + i });
      }
    })();
  } finally {
    db.close();
  }
}

async function fiveAgentsWithResults(drover: DroverWorld): Promise<{ url: string; projectId: string; folder: string }> {
  const folder = drover.makeFolder('busy-project');
  await drover.startHost(['--project', folder]);
  const projectId = await saveProfiles(drover, folder, [SHELL_AGENT_PROFILE]);
  const client = await connectToDrover(path.join(drover.dataDir, 'drover.sock'));
  const agentIds: string[] = [];
  try {
    for (const name of AGENTS) agentIds.push((await client.rpc.call('createAgent', { projectId, name, role: `works on ${name}’s part of the code base`, profileId: 'sh' })).id);
  } finally {
    client.close();
  }
  await drover.host().stop();
  seedAgentResults(drover.dataDir, projectId, folder, agentIds);
  return { url: await drover.startHost(), projectId, folder };
}

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

function overlaps(a: Box, b: Box): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

/** How many rows the header's contents sit in (children whose vertical centres lie within 8 px share a row). */
async function headerRows(header: Locator): Promise<number> {
  return header.evaluate((element) => {
    const leaves = [...element.querySelectorAll('*')].filter((child) => child.children.length === 0 || child.matches('button, [role="img"], .branch-chip'));
    const centres = leaves
      .map((child) => child.getBoundingClientRect())
      .filter((box) => box.width > 0 && box.height > 0)
      .map((box) => box.top + box.height / 2)
      .sort((a, b) => a - b);
    let rows = 0;
    let last = -Infinity;
    for (const centre of centres) {
      if (centre - last > 8) rows++;
      last = centre;
    }
    return rows;
  });
}

/** The box of a terminal's last three rows on screen. */
async function lastRowsBox(terminal: Locator): Promise<Box | null> {
  return terminal.evaluate((element) => {
    const rows = [...element.querySelectorAll('.xterm-rows > div')].slice(-3).map((row) => row.getBoundingClientRect());
    if (rows.length === 0) return null;
    const top = Math.min(...rows.map((row) => row.top));
    const bottom = Math.max(...rows.map((row) => row.bottom));
    const left = Math.min(...rows.map((row) => row.left));
    const right = Math.max(...rows.map((row) => row.right));
    return { x: left, y: top, width: right - left, height: bottom - top };
  });
}

async function checkLayout(page: Page, width: number): Promise<void> {
  const panes = page.locator('.agent-pane:not([hidden])');
  const headers = panes.locator('.agent-pane__header');
  const heights = new Set<number>();
  for (const header of await headers.all()) {
    expect(await headerRows(header), `a pane header at ${width} px`).toBeLessThanOrEqual(2);
    heights.add(Math.round((await header.boundingBox())?.height ?? 0));
    const headerBox = await header.boundingBox();
    const moreBox = await header.getByRole('button', { name: /^More actions for / }).boundingBox();
    expect(headerBox && moreBox && moreBox.x + moreBox.width <= headerBox.x + headerBox.width, `a pane header's actions fit at ${width} px`).toBe(true);
  }
  expect([...heights], `pane headers keep one height at ${width} px`).toHaveLength(1);

  const toasts = await page.getByRole('status').filter({ has: page.getByRole('button', { name: 'View output' }) }).all();
  expect(toasts.length).toBeGreaterThan(0);
  for (const terminal of await panes.getByRole('group', { name: / terminal$/ }).all()) {
    const rows = await lastRowsBox(terminal);
    if (!rows) continue;
    for (const toast of toasts) {
      const box = await toast.boundingBox();
      expect(box && overlaps(box, rows), `a toast over a terminal's last rows at ${width} px`).toBe(false);
    }
  }
}

test('five agents, 50 finished tasks and a toast: steady headers, toasts clear of the terminals’ last rows, the Work state header in view', async ({ page, drover }) => {
  test.setTimeout(180_000);
  const { url, projectId, folder } = await fiveAgentsWithResults(drover);
  await openWorkspace(page, url, projectId);
  for (const name of AGENTS) {
    const pane = agentPane(page, name);
    await pane.getByRole('button', { name: 'Start' }).click();
    await expect(stateBadge(pane, 'Not started')).toHaveCount(0);
  }
  const panel = page.getByRole('region', { name: 'Work state' });
  await expect(panel.getByText('50 tasks', { exact: true })).toBeVisible();

  for (const [width, height] of [
    [1400, 900],
    [1000, 800],
    [390, 844],
  ] as const) {
    await page.setViewportSize({ width, height });
    await runTask(drover, folder, 'true', `toast at ${width}`);
    const toast = page.getByRole('status').filter({ hasText: `toast at ${width}` });
    await expect(toast).toBeVisible();
    await toast.hover();
    await checkLayout(page, width);
    await screenshot(page, `layout-under-load-${width}.png`);
    await toast.getByRole('button', { name: 'Dismiss' }).click();

    await page.locator('body').click({ position: { x: 5, y: 5 } });
    for (let i = 0; i < 5; i++) await page.keyboard.press('Control+Alt+N');
    await expect(page.getByRole('heading', { name: 'Work state' })).toBeInViewport({ ratio: 1 });
    await expect(panel.getByRole('button', { name: 'Run task…' })).toBeInViewport({ ratio: 1 });
    await screenshot(page, `layout-after-next-${width}.png`);
    await page.keyboard.press('Escape');
  }
});
