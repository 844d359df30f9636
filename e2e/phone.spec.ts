import { expect, test } from './support/droverHost';
import { agentPane, saveProfiles, screenshot } from './support/agents';
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
