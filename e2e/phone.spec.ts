import { expect, test } from './support/droverHost';
import { agentPane, saveProfiles, screenshot, SHELL_AGENT_PROFILE, stateBadge, terminalOf } from './support/agents';
import { QUICK_FAKE_PROFILE } from './support/agentBridge';
import { needsYouButton, waitForSession, withSocket } from './support/attention';
import { runTask, taskRow } from './support/workState';

test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

/** Nothing on the page is wider than the phone: no sideways scrolling. */
async function fitsTheWidth(page: import('@playwright/test').Page): Promise<boolean> {
  return page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
}

test('at 390 px the browser host shows one agent at a time, the work state and the queue as sheets', async ({ page, drover }) => {
  const folder = drover.makeFolder('shop');
  const url = await drover.startHost(['--project', folder]);
  const projectId = await saveProfiles(drover, folder, [QUICK_FAKE_PROFILE]);
  const ada = await withSocket(drover, async (rpc) => {
    const started = [];
    for (const name of ['Ada', 'Bo']) {
      const agent = await rpc.call('createAgent', { projectId, name, role: '', profileId: QUICK_FAKE_PROFILE.id });
      await rpc.call('startAgent', { agentId: agent.id, resume: false });
      await waitForSession(rpc, projectId, agent.id, 'ready');
      started.push(agent);
    }
    return started[0] as (typeof started)[number];
  });
  await runTask(drover, folder, 'echo 3 tests broke; exit 1', 'unit tests');

  await page.goto(`${url}#/project/${projectId}`);
  const switcher = page.getByRole('tablist', { name: 'Shown agent' });
  await expect(switcher.getByRole('tab', { name: 'Ada, Ready', selected: true })).toBeVisible();
  await expect(agentPane(page, 'Ada')).toBeVisible();
  await expect(agentPane(page, 'Bo')).toBeHidden();
  expect(await fitsTheWidth(page)).toBe(true);
  await screenshot(page, 'phone-agent.png');

  await switcher.getByRole('tab', { name: 'Bo, Ready' }).tap();
  await expect(agentPane(page, 'Bo')).toBeVisible();
  await expect(agentPane(page, 'Ada')).toBeHidden();
  const tab = await switcher.getByRole('tab', { name: 'Bo, Ready' }).boundingBox();
  expect(tab?.height ?? 0).toBeGreaterThanOrEqual(40);

  // The work state opens as a sheet over the terminal and closes again.
  const workState = page.getByRole('region', { name: 'Work state' });
  await expect(workState).toBeHidden();
  await page.getByRole('button', { name: 'Show work state' }).tap();
  await expect(taskRow(workState, 'unit tests').getByText('Failed')).toBeVisible();
  const retry = await taskRow(workState, 'unit tests').getByRole('button', { name: 'Retry' }).boundingBox();
  expect(retry?.height ?? 0).toBeGreaterThanOrEqual(36);
  expect(await fitsTheWidth(page)).toBe(true);
  await screenshot(page, 'phone-work-state.png');
  await page.getByRole('button', { name: 'Hide work state' }).tap();
  await expect(workState).toBeHidden();

  // The queue: the failed task is in it; going to it opens the work state sheet with its row.
  await needsYouButton(page, 1).tap();
  const queue = page.getByRole('dialog', { name: 'Needs you' });
  await expect(queue.getByRole('listitem')).toHaveText([/Task failed.*unit tests/]);
  await screenshot(page, 'phone-needs-you.png');
  await queue.getByRole('listitem').getByRole('button', { name: /^Task failed unit tests/ }).tap();
  await expect(queue).toBeHidden();
  await expect(taskRow(workState, 'unit tests')).toHaveAttribute('aria-selected', 'true');

  // An agent that needs input is reached the same way: its pane is the one shown.
  await page.getByRole('button', { name: 'Hide work state' }).tap();
  await withSocket(drover, async (rpc) => {
    await rpc.call('writeAgentInput', { agentId: ada.id, data: '/permission\r' });
    await waitForSession(rpc, projectId, ada.id, 'ready', true);
  });
  await expect(switcher.getByRole('tab', { name: 'Ada, Needs input' })).toBeVisible();
  await needsYouButton(page, 2).tap();
  await queue.getByRole('listitem').filter({ hasText: 'Needs input' }).getByRole('button', { name: /^Needs input Ada/ }).tap();
  await expect(agentPane(page, 'Ada')).toBeVisible();
  await expect(agentPane(page, 'Bo')).toBeHidden();
  await screenshot(page, 'phone-needs-input.png');

  await page.goto(`${url}#/`);
  await expect(page.getByRole('listitem').filter({ hasText: 'shop' }).getByRole('img', { name: 'Needs you: 2 items' })).toBeVisible();
  expect(await fitsTheWidth(page)).toBe(true);
  await screenshot(page, 'phone-projects.png');
});

/** bash, for its history: the Up key brings the last command back. */
const BASH_PROFILE = { ...SHELL_AGENT_PROFILE, id: 'bash', name: 'Bash', command: '/bin/bash', args: ['--norc', '--noprofile', '-i'] };

test('issue 35, item 13: at 390 px the Needs you label stays, the toolbar is one row, badges stay in the pane, no key hints, and a row of the keys a phone lacks', async ({ page, drover }) => {
  const folder = drover.makeFolder('shop');
  const url = await drover.startHost(['--project', folder]);
  const projectId = await saveProfiles(drover, folder, [BASH_PROFILE]);
  await withSocket(drover, async (rpc) => {
    const agent = await rpc.call('createAgent', { projectId, name: 'Bash agent', role: '', profileId: BASH_PROFILE.id });
    await rpc.call('startAgent', { agentId: agent.id, resume: false });
    await waitForSession(rpc, projectId, agent.id, 'ready');
  });
  await runTask(drover, folder, 'sleep 60', 'long build');
  await page.goto(`${url}#/project/${projectId}`);
  const pane = agentPane(page, 'Bash agent');
  await expect(stateBadge(pane, 'Ready')).toBeVisible();

  await expect(page.getByRole('banner').getByText('Needs you', { exact: true })).toBeVisible();
  const toolbarTops = await page.locator('.workspace__header button').evaluateAll((buttons) => new Set(buttons.map((button) => Math.round(button.getBoundingClientRect().top))).size);
  expect(toolbarTops).toBe(1);
  await expect(page.getByRole('button', { name: 'Show work state' })).toBeInViewport();
  const paneRight = (await pane.boundingBox())?.x ?? 0 + ((await pane.boundingBox())?.width ?? 0);
  const badgeRights = await pane.locator('.agent-pane__badges > *').evaluateAll((badges) => badges.map((badge) => badge.getBoundingClientRect().right));
  for (const right of badgeRights) expect(right).toBeLessThanOrEqual(Math.max(paneRight, 390));
  expect(await fitsTheWidth(page)).toBe(true);

  // The keys: Up brings bash's last command back, Enter runs it; Ctrl then c interrupts a command.
  const terminal = terminalOf(pane, 'Bash agent');
  const keys = page.getByRole('toolbar', { name: 'Keys for Bash agent terminal' });
  await terminal.tap();
  await page.keyboard.type('echo ok-$((6*7))\n');
  await expect(terminal).toContainText('ok-42');
  await keys.getByRole('button', { name: 'Up' }).tap();
  await keys.getByRole('button', { name: 'Enter' }).tap();
  await expect.poll(async () => ((await terminal.textContent()) ?? '').split('ok-42').length - 1).toBe(2);
  await page.keyboard.type('sleep 300\n');
  await expect(stateBadge(pane, 'Busy')).toBeVisible();
  const ctrl = keys.getByRole('button', { name: 'Ctrl' });
  await ctrl.tap();
  await expect(ctrl).toHaveAttribute('aria-pressed', 'true');
  await page.keyboard.type('c');
  await expect(ctrl).toHaveAttribute('aria-pressed', 'false');
  await page.keyboard.type('echo done-$((1+1))\n');
  await expect(terminal).toContainText('done-2');
  await screenshot(page, 'phone-keys.png');

  // No hints of keys a phone has not got; a row's action it cannot take takes no room.
  await page.getByRole('button', { name: 'Show work state' }).tap();
  const workState = page.getByRole('region', { name: 'Work state' });
  await expect(taskRow(workState, 'long build').getByText('Running')).toBeVisible();
  await expect(workState.getByRole('button', { name: /^Shortcuts/ })).toBeHidden();
  await expect(taskRow(workState, 'long build').getByRole('button', { name: 'Cancel' })).toBeVisible();
  await expect(taskRow(workState, 'long build').getByRole('button', { name: 'Retry' })).toBeHidden();
  await screenshot(page, 'phone-work-state-running.png');
});
