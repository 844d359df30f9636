import path from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { makeRepo } from '../test-support/gitRepo';
import { hasFocusWithin, withSocket } from './support/attention';
import { agentPane, openWorkspace, saveProfiles, screenshot, SHELL_AGENT_PROFILE, stateBadge } from './support/agents';
import { seriousViolations } from './support/axe';
import { expect, test, type DroverWorld } from './support/droverHost';

const AGENTS = [
  { name: 'docs', role: 'Docs and README' },
  { name: 'ops', role: 'Operations and deploys' },
  { name: 'reviewer', role: 'Reviews pull requests', worktree: true },
] as const;

/** A repository project with three started shell agents (the reviewer in its own worktree) and a task, and a second project with one agent. */
async function twoProjects(drover: DroverWorld): Promise<{ url: string; projectId: string; otherId: string }> {
  const repo = makeRepo(path.join(drover.root, 'shop'), { 'README.md': 'hello\n' });
  const other = makeRepo(path.join(drover.root, 'blog'), { 'README.md': 'posts\n' });
  const url = await drover.startHost(['--project', repo]);
  const projectId = await saveProfiles(drover, repo, [SHELL_AGENT_PROFILE]);
  const otherId = await withSocket(drover, async (rpc) => {
    for (const agent of AGENTS) {
      const workspace = 'worktree' in agent ? { workspace: { kind: 'new-worktree' as const } } : {};
      const created = await rpc.call('createAgent', { projectId, name: agent.name, role: agent.role, profileId: 'sh', ...workspace });
      await rpc.call('startAgent', { agentId: created.id, resume: false });
    }
    await rpc.call('createTask', { projectId, command: 'echo ok', label: 'lint' });
    const blog = await rpc.call('addProject', { path: other });
    await rpc.call('createAgent', { projectId: blog.id, name: 'writer', role: 'Posts', profileId: 'sh' });
    return blog.id;
  });
  return { url, projectId, otherId };
}

async function openWithAgentsReady(page: Page, url: string, projectId: string): Promise<void> {
  await page.setViewportSize({ width: 1440, height: 900 });
  await openWorkspace(page, url, projectId);
  for (const { name } of AGENTS) await expect(stateBadge(agentPane(page, name), 'Ready')).toBeVisible();
}

const shownPanes = (page: Page) => page.locator('.agent-pane:not([hidden])');
const otherAgents = (page: Page) => page.getByRole('navigation', { name: 'Other agents' });
const tabs = (page: Page) => page.getByRole('tablist', { name: 'Shown agent' });
const workStatePanel = (page: Page) => page.getByRole('region', { name: 'Work state' });
const splitter = (page: Page) => page.getByRole('separator', { name: 'Work state height' });

async function panelHeight(page: Page): Promise<number> {
  return Math.round((await workStatePanel(page).locator('xpath=..').boundingBox())?.height ?? 0);
}

async function runPaletteCommand(page: Page, label: string): Promise<void> {
  await page.keyboard.press('Control+Shift+P');
  const palette = page.getByRole('dialog', { name: 'Command palette' });
  await page.keyboard.type(label);
  await expect(palette.getByRole('option', { name: label, exact: true })).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('Enter');
  await expect(palette).toBeHidden();
}

/** The vertical centres of the row's visible children that are not clipped away: one line when they all agree. */
async function rowCentres(row: Locator): Promise<number[]> {
  return row.evaluate((element) =>
    [...element.children]
      .map((child) => child.getBoundingClientRect())
      .filter((box) => box.width > 0 && box.height > 0)
      .map((box) => Math.round(box.top + box.height / 2)),
  );
}

test('grid, focus and tabs show the panes their way; each project keeps its layout, work state height and hidden state over a reload', async ({ page, drover }) => {
  test.setTimeout(120_000);
  const { url, projectId, otherId } = await twoProjects(drover);
  await openWithAgentsReady(page, url, projectId);
  const layouts = page.getByRole('radiogroup', { name: 'Pane layout' });

  // Grid: every pane side by side, no list, no tabs.
  await expect(layouts.getByRole('radio', { name: 'Grid' })).toBeChecked();
  await expect(shownPanes(page)).toHaveCount(3);
  await expect(otherAgents(page)).toHaveCount(0);
  await expect(tabs(page)).toHaveCount(0);
  await screenshot(page, 'layout-grid-1440.png');

  // Focus, chosen from the keyboard: one pane large, the other two as headers with their state.
  await layouts.getByRole('radio', { name: 'Grid' }).focus();
  await page.keyboard.press('ArrowRight');
  await expect(layouts.getByRole('radio', { name: 'Focus' })).toBeChecked();
  await expect(shownPanes(page)).toHaveCount(1);
  await expect(agentPane(page, 'docs')).toBeVisible();
  const large = await agentPane(page, 'docs').boundingBox();
  expect(large?.width ?? 0).toBeGreaterThan(1000);
  const list = otherAgents(page);
  await expect(list.getByRole('button')).toHaveCount(2);
  await expect(list.getByRole('button', { name: /^ops Ready Operations and deploys/ })).toBeVisible();
  await expect(list.getByRole('button', { name: /^reviewer Ready/ })).toBeVisible();
  await screenshot(page, 'layout-focus-1440.png');
  await list.getByRole('button', { name: /^ops / }).click();
  await expect(agentPane(page, 'ops')).toBeVisible();
  await expect(agentPane(page, 'docs')).toBeHidden();
  await expect(list.getByRole('button', { name: /^docs / })).toBeVisible();
  await list.getByRole('button', { name: /^reviewer / }).focus();
  await page.keyboard.press('Enter');
  await expect(agentPane(page, 'reviewer')).toBeVisible();
  await expect.poll(() => hasFocusWithin(page.getByRole('group', { name: 'reviewer terminal' }))).toBe(true);

  // Tabs, from the palette: one pane at a time under a tab strip with each agent's state.
  await runPaletteCommand(page, 'Layout: Tabs');
  await expect(layouts.getByRole('radio', { name: 'Tabs' })).toBeChecked();
  await expect(otherAgents(page)).toHaveCount(0);
  await expect(tabs(page).getByRole('tab')).toHaveCount(3);
  await expect(tabs(page).getByRole('tab', { name: 'reviewer, Ready' })).toHaveAttribute('aria-selected', 'true');
  await expect(shownPanes(page)).toHaveCount(1);
  await tabs(page).getByRole('tab', { name: 'docs, Ready' }).click();
  await expect(agentPane(page, 'docs')).toBeVisible();
  await expect(agentPane(page, 'reviewer')).toBeHidden();
  await screenshot(page, 'layout-tabs-1440.png');

  // The work state made taller from the keyboard, then hidden.
  const before = await panelHeight(page);
  await splitter(page).focus();
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('ArrowUp');
  await expect(splitter(page)).toHaveAttribute('aria-valuenow', String(before + 48));
  await expect.poll(() => panelHeight(page)).toBe(before + 48);
  await page.getByRole('button', { name: 'Hide work state' }).click();
  await expect(workStatePanel(page)).toBeHidden();
  await expect(splitter(page)).toHaveCount(0);

  // The second project keeps its own: the grid and the work state shown, until it gets Focus.
  await openWorkspace(page, url, otherId);
  await expect(page.getByRole('radio', { name: 'Grid' })).toBeChecked();
  await expect(workStatePanel(page)).toBeVisible();
  await expect.poll(() => panelHeight(page)).toBe(before);
  await runPaletteCommand(page, 'Layout: Focus');
  await expect(page.getByRole('radio', { name: 'Focus' })).toBeChecked();

  await page.reload();
  await expect(page.getByRole('radio', { name: 'Focus' })).toBeChecked();
  await expect(workStatePanel(page)).toBeVisible();
  await openWorkspace(page, url, projectId);
  await expect(page.getByRole('radio', { name: 'Tabs' })).toBeChecked();
  await expect(tabs(page)).toBeVisible();
  await expect(workStatePanel(page)).toBeHidden();
  await page.getByRole('button', { name: 'Show work state' }).click();
  await expect(workStatePanel(page)).toBeVisible();
  await expect.poll(() => panelHeight(page)).toBe(before + 48);

  // A phone shows one pane at a time under tabs, whatever the wide window's layout.
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(page.getByRole('radiogroup', { name: 'Pane layout' })).toHaveCount(0);
  await expect(tabs(page)).toBeVisible();
  await screenshot(page, 'layout-phone-390.png');
});

test('at 1,440 px three panes keep their headers on one line, their other actions in a menu worked by the keyboard', async ({ page, drover }) => {
  test.setTimeout(90_000);
  const { url, projectId } = await twoProjects(drover);
  await openWithAgentsReady(page, url, projectId);
  await expect(shownPanes(page)).toHaveCount(3);

  for (const { name, role } of AGENTS) {
    const header = agentPane(page, name).locator('.agent-pane__header');
    const title = header.locator('.agent-pane__title');
    // The name, state, role and actions share one line, none cut short.
    const centres = await rowCentres(title);
    expect(Math.max(...centres) - Math.min(...centres), `${name}'s header row`).toBeLessThanOrEqual(2);
    expect((await title.boundingBox())?.height, `${name}'s header row height`).toBeLessThanOrEqual(30);
    await expect(header.getByText(role, { exact: true })).toBeVisible();
    for (const text of [header.locator('.agent-pane__name'), header.locator('.agent-pane__role'), header.locator('.agent-pane__badges')]) {
      expect(await text.evaluate((element) => element.scrollWidth <= element.clientWidth), `${name}'s header cuts nothing short`).toBe(true);
    }
    await expect(header.getByRole('button', { name: 'Stop' })).toBeVisible();
    await expect(header.getByRole('button', { name: 'Maximise' })).toBeVisible();
  }
  const reviewer = agentPane(page, 'reviewer');
  await expect(reviewer.getByRole('button', { name: 'Changes' })).toBeVisible();

  // The menu by keyboard: Arrow Down opens it on its first item; arrows wrap, Home and End jump; Escape hands focus back.
  const more = reviewer.getByRole('button', { name: 'More actions for reviewer' });
  await expect(more).toHaveAttribute('aria-haspopup', 'menu');
  await expect(more).toHaveAttribute('aria-expanded', 'false');
  await more.focus();
  await page.keyboard.press('ArrowDown');
  const menu = page.getByRole('menu', { name: 'More actions for reviewer' });
  await expect(more).toHaveAttribute('aria-expanded', 'true');
  await expect(menu.getByRole('menuitem')).toHaveText(['Restart', 'Open pull request…', 'Queue for merge', 'Hold wakes', 'Edit agent…', 'Remove agent…']);
  await expect(menu.getByRole('menuitem', { name: 'Restart' })).toBeFocused();
  await screenshot(page, 'layout-menu-open-1440.png');
  await page.keyboard.press('ArrowUp');
  await expect(menu.getByRole('menuitem', { name: 'Remove agent…' })).toBeFocused();
  await page.keyboard.press('Home');
  await expect(menu.getByRole('menuitem', { name: 'Restart' })).toBeFocused();
  await page.keyboard.press('End');
  await expect(menu.getByRole('menuitem', { name: 'Remove agent…' })).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await expect(menu.getByRole('menuitem', { name: 'Restart' })).toBeFocused();
  await expect(menu.getByRole('menuitem', { name: 'Restart' })).toHaveAttribute('tabindex', '0');
  await expect(menu.getByRole('menuitem', { name: 'Hold wakes' })).toHaveAttribute('tabindex', '-1');
  await page.keyboard.press('Escape');
  await expect(menu).toBeHidden();
  await expect(more).toBeFocused();
  await expect(shownPanes(page)).toHaveCount(3);

  // Enter opens it too, and Enter on an item does it: here Edit agent opens its dialog.
  await page.keyboard.press('Enter');
  await expect(menu.getByRole('menuitem', { name: 'Restart' })).toBeFocused();
  await page.keyboard.press('End');
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('Enter');
  await expect(menu).toBeHidden();
  const edit = page.getByRole('dialog', { name: 'Edit reviewer' });
  await expect(edit).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(edit).toBeHidden();
});

for (const theme of ['dark', 'light'] as const) {
  test(`the focus and tabs layouts and an open More actions menu pass the axe audit, ${theme} theme`, async ({ page, drover }) => {
    test.setTimeout(90_000);
    const { url, projectId } = await twoProjects(drover);
    await withSocket(drover, (rpc) => rpc.call('updateAppSettings', { settings: { theme } }));
    await openWithAgentsReady(page, url, projectId);
    await expect(page.locator(`html[data-theme="${theme}"]`)).toHaveCount(1);
    const found: Record<string, string[]> = {};

    const more = agentPane(page, 'docs').getByRole('button', { name: 'More actions for docs' });
    await more.click();
    await expect(page.getByRole('menu', { name: 'More actions for docs' })).toBeVisible();
    found['menu open'] = await seriousViolations(page);
    await page.keyboard.press('Escape');

    await page.getByRole('radio', { name: 'Grid' }).focus();
    await page.keyboard.press('ArrowRight');
    await expect(otherAgents(page)).toBeVisible();
    found['focus layout'] = await seriousViolations(page);

    await page.keyboard.press('ArrowRight');
    await expect(tabs(page)).toBeVisible();
    found['tabs layout'] = await seriousViolations(page);

    expect(found).toEqual({ 'menu open': [], 'focus layout': [], 'tabs layout': [] });
  });
}
