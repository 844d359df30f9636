import { expect, test } from './support/droverHost';
import { agentPane, saveProfiles, screenshot, terminalOf } from './support/agents';
import { QUICK_FAKE_PROFILE } from './support/agentBridge';
import { hasFocusWithin, needsYouButton, raisedNotifications, recordNotifications, waitForSession, withSocket } from './support/attention';
import { runCli } from '../test-support/droverProcess';
import { runTask, taskRow } from './support/workState';

test('the Needs you queue gathers what needs the person across projects, goes to each item in turn, and notifies once per transition', async ({ page, drover }) => {
  const shopFolder = drover.makeFolder('shop');
  const apiFolder = drover.makeFolder('api');
  const url = await drover.startHost(['--project', shopFolder]);
  const shopId = await saveProfiles(drover, shopFolder, [QUICK_FAKE_PROFILE]);
  const { apiId, bo, cy } = await withSocket(drover, async (rpc) => {
    const api = await rpc.call('addProject', { path: apiFolder });
    const agent = (projectId: string, name: string) => rpc.call('createAgent', { projectId, name, role: '', profileId: QUICK_FAKE_PROFILE.id });
    const agents = { apiId: api.id, ada: await agent(shopId, 'Ada'), bo: await agent(shopId, 'Bo'), cy: await agent(api.id, 'Cy') };
    for (const started of [agents.ada, agents.bo, agents.cy]) await rpc.call('startAgent', { agentId: started.id, resume: false });
    for (const [projectId, started] of [[shopId, agents.ada], [shopId, agents.bo], [api.id, agents.cy]] as const) await waitForSession(rpc, projectId, started.id, 'ready');
    return agents;
  });

  await recordNotifications(page);
  await page.goto(url);
  await expect(needsYouButton(page, 0)).toBeVisible();

  // Cy (project api) stops at a permission dialog; a task Ada owns fails in project shop.
  await withSocket(drover, (rpc) => rpc.call('writeAgentInput', { agentId: cy.id, data: '/permission\r' }));
  await expect(needsYouButton(page, 1)).toBeVisible();
  const failing = await runCli(['--data-dir', drover.dataDir, 'task', 'run', '--agent', 'Ada', '--label', 'lint', '--', 'echo 2 problems; exit 3'], { cwd: shopFolder });
  expect(failing.code, failing.stderr).toBe(0);
  await expect(needsYouButton(page, 2)).toBeVisible();
  const projects = page.getByRole('region', { name: 'Projects on this machine' });
  await expect(projects.getByRole('listitem').filter({ hasText: 'shop' }).getByRole('img', { name: 'Needs you: 1 item' })).toBeVisible();
  await expect(projects.getByRole('listitem').filter({ hasText: 'api' }).getByRole('img', { name: 'Needs you: 1 item' })).toBeVisible();

  // A turn that ends is no reason to notify: Bo works and is ready again.
  await withSocket(drover, async (rpc) => {
    await rpc.call('writeAgentInput', { agentId: bo.id, data: 'tidy the imports\r' });
    await waitForSession(rpc, shopId, bo.id, 'busy');
    await waitForSession(rpc, shopId, bo.id, 'ready');
  });
  const NOTIFIED = ['Cy: needs input | api · waiting for your answer', 'Task failed: lint | shop · exit 3'];
  const notified = async () => (await raisedNotifications(page)).map(({ title, body }) => `${title} | ${body}`);
  await expect.poll(notified).toEqual(NOTIFIED);

  const queue = page.getByRole('dialog', { name: 'Needs you' });
  await needsYouButton(page, 2).click();
  await expect(queue.getByRole('listitem')).toHaveText([/Needs input.*Cy.*waiting for your answer.*api/, /Task failed.*lint.*exit 3.*shop/]);
  await screenshot(page, 'attention-queue.png');
  await queue.getByRole('button', { name: 'Close' }).click();

  // The shortcut goes to each item in turn: the agent's pane first (most urgent), then the task.
  await page.keyboard.press('Control+Alt+N');
  await expect(page).toHaveURL(new RegExp(`#/project/${apiId}$`));
  const cyPane = agentPane(page, 'Cy');
  await expect.poll(() => hasFocusWithin(cyPane)).toBe(true);
  await page.keyboard.press('Control+Alt+N');
  await expect(page).toHaveURL(new RegExp(`#/project/${shopId}$`));
  const panel = page.getByRole('region', { name: 'Work state' });
  const grid = panel.getByRole('grid', { name: 'Tasks' });
  await expect(grid).toBeFocused();
  await expect(taskRow(panel, 'lint')).toHaveAttribute('aria-selected', 'true');
  // The owner's pane says how its task ended, in the failure's tone.
  const failedBadge = agentPane(page, 'Ada').getByRole('img', { name: 'Task failed: 1 new result' });
  await expect(failedBadge).toHaveText('Task failed');
  await expect(failedBadge).toHaveAttribute('data-tone', 'failed');

  // Handling them empties the queue: the task's output is opened, Cy gets its answer.
  await page.keyboard.press('Enter');
  const output = page.getByRole('dialog', { name: 'Output: lint' });
  await expect(output).toContainText('2 problems');
  await page.keyboard.press('Escape');
  await expect(needsYouButton(page, 1)).toBeVisible();
  await page.keyboard.press('Control+Alt+N');
  await expect.poll(() => hasFocusWithin(cyPane)).toBe(true);
  await expect(terminalOf(cyPane, 'Cy')).toContainText('Allow the fake tool to edit files?');
  await page.keyboard.type('y');
  await page.keyboard.press('Enter');
  await expect(needsYouButton(page, 0)).toBeVisible();
  expect(await notified()).toEqual(NOTIFIED);
  await page.reload();
  await expect(needsYouButton(page, 0)).toBeVisible();
  expect(await raisedNotifications(page)).toEqual([]);

  // A muted project still fills the queue, but notifies no more.
  await page.getByRole('link', { name: 'Settings' }).click();
  const settings = page.getByRole('region', { name: 'Notifications' });
  await settings.getByRole('checkbox', { name: 'Mute api' }).check();
  await expect(settings.getByRole('checkbox', { name: 'Mute api' })).toBeChecked();
  await page.getByRole('link', { name: 'Projects' }).click();
  await withSocket(drover, async (rpc) => {
    await rpc.call('writeAgentInput', { agentId: cy.id, data: '/permission\r' });
    await waitForSession(rpc, apiId, cy.id, 'ready', true);
  });
  await expect(needsYouButton(page, 1)).toBeVisible();
  expect(await raisedNotifications(page)).toEqual([]);
});

test('what one page dismissed or opened in Needs you leaves the queue of every other page, live and after a reload', async ({ page, drover, browser }) => {
  const folder = drover.makeFolder('shop');
  const url = await drover.startHost(['--project', folder]);
  await runTask(drover, folder, 'echo 2 problems; exit 3', 'lint');
  await runTask(drover, folder, 'echo 1 failing; exit 4', 'tests');
  await page.goto(url);
  await expect(needsYouButton(page, 2)).toBeVisible();
  // Another browser (its own storage), as a phone on the LAN would be.
  const phoneBrowser = await browser.newContext();
  try {
    const phone = await phoneBrowser.newPage();
    await phone.goto(url);
    await expect(needsYouButton(phone, 2)).toBeVisible();

    // Dismissed on the desktop: it leaves the phone's queue at once.
    await needsYouButton(page, 2).click();
    const queue = page.getByRole('dialog', { name: 'Needs you' });
    await queue.getByRole('button', { name: /^Dismiss .*lint/ }).click();
    await expect(needsYouButton(phone, 1)).toBeVisible();
    await queue.getByRole('button', { name: 'Close' }).click();

    // Opened on the phone: it leaves the desktop's.
    await needsYouButton(phone, 1).click();
    await phone.getByRole('dialog', { name: 'Needs you' }).getByRole('listitem', { name: /tests/ }).getByRole('button').first().click();
    await expect(phone.getByRole('grid', { name: 'Tasks' })).toBeFocused();
    await phone.keyboard.press('Enter');
    await expect(phone.getByRole('dialog', { name: 'Output: tests' })).toContainText('1 failing');
    await expect(needsYouButton(page, 0)).toBeVisible();

    // The host keeps them: a reload, or a page that never saw either, shows none of them.
    await page.reload();
    await expect(needsYouButton(page, 0)).toBeVisible();
    const fresh = await browser.newContext();
    try {
      const freshPage = await fresh.newPage();
      await freshPage.goto(url);
      await expect(freshPage.getByRole('region', { name: 'Projects on this machine' })).toBeVisible();
      await needsYouButton(freshPage, 0).click();
      await expect(freshPage.getByRole('dialog', { name: 'Needs you' })).toContainText('Nothing needs you right now.');
    } finally {
      await fresh.close();
    }
  } finally {
    await phoneBrowser.close();
  }
});
