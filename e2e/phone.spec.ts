import { expect, test, type DroverWorld } from './support/droverHost';
import type { Locator } from '@playwright/test';
import { agentPane, saveProfiles, screenshot, SHELL_AGENT_PROFILE, stateBadge, terminalOf, typeLine } from './support/agents';
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

/** A shop project whose Bash agent is started and ready, served by a host of its own. */
async function shopWithBashAgent(drover: DroverWorld): Promise<{ folder: string; url: string; projectId: string }> {
  const folder = drover.makeFolder('shop');
  const url = await drover.startHost(['--project', folder]);
  const projectId = await saveProfiles(drover, folder, [BASH_PROFILE]);
  await withSocket(drover, async (rpc) => {
    const agent = await rpc.call('createAgent', { projectId, name: 'Bash agent', role: '', profileId: BASH_PROFILE.id });
    await rpc.call('startAgent', { agentId: agent.id, resume: false });
    await waitForSession(rpc, projectId, agent.id, 'ready');
  });
  return { folder, url, projectId };
}

test('issue 35, item 13: at 390 px the Needs you label stays, the toolbar is one row, badges stay in the pane, no key hints, and a row of the keys a phone lacks', async ({ page, drover }) => {
  const { folder, url, projectId } = await shopWithBashAgent(drover);
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

/** What `stty size` answered in the agent, as the terminal shows it: [rows, cols]. */
async function sttyAnswer(terminal: Locator, marker: string): Promise<[number, number]> {
  const line = terminal.locator('.xterm-rows > div', { hasText: new RegExp(`^${marker} \\d+ \\d+`) });
  await expect(line).toHaveCount(1);
  const [, rows, cols] = (await line.innerText()).trim().split(/\s+/).map(Number);
  return [rows ?? 0, cols ?? 0];
}

function shownRows(terminal: Locator): Promise<number> {
  return terminal.locator('.xterm-rows > div').count();
}

test('issue 35, item 13: opening the phone page leaves the desktop terminal its size; the PTY takes the size of the page that typed last', async ({ page: phone, drover, browser }) => {
  const { url, projectId } = await shopWithBashAgent(drover);
  const desktopContext = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  try {
    const desktop = await desktopContext.newPage();
    await desktop.goto(`${url}#/project/${projectId}`);
    const desktopTerminal = terminalOf(agentPane(desktop, 'Bash agent'), 'Bash agent');
    await typeLine(desktop, desktopTerminal, 'echo desktop-1 $(stty size)');
    const desktopSize = await sttyAnswer(desktopTerminal, 'desktop-1');
    expect(desktopSize[1]).toBeGreaterThan(100);

    // The phone opens the agent: it shows the PTY at the desktop's size, clipped in its pane.
    await phone.goto(`${url}#/project/${projectId}`);
    const phoneTerminal = terminalOf(agentPane(phone, 'Bash agent'), 'Bash agent');
    await expect(phoneTerminal).toContainText('desktop-1');
    await expect.poll(() => shownRows(phoneTerminal)).toBe(desktopSize[0]);
    expect(await fitsTheWidth(phone)).toBe(true);
    await typeLine(desktop, desktopTerminal, 'echo desktop-2 $(stty size)');
    expect(await sttyAnswer(desktopTerminal, 'desktop-2')).toEqual(desktopSize);
    expect(await shownRows(desktopTerminal)).toBe(desktopSize[0]);

    // Typing on the phone gives the PTY the phone's size; both pages show it at that size.
    await phoneTerminal.tap();
    await phone.keyboard.type('echo phone-1 $(stty size)\n');
    const phoneSize = await sttyAnswer(phoneTerminal, 'phone-1');
    expect(phoneSize[1]).toBeLessThan(60);
    await expect.poll(() => shownRows(phoneTerminal)).toBe(phoneSize[0]);
    await expect.poll(() => shownRows(desktopTerminal)).toBe(phoneSize[0]);
    await screenshot(phone, 'phone-owns-the-pty.png');

    // Typing on the desktop brings its size back.
    await typeLine(desktop, desktopTerminal, 'echo desktop-3 $(stty size)');
    expect(await sttyAnswer(desktopTerminal, 'desktop-3')).toEqual(desktopSize);
    await expect.poll(() => shownRows(desktopTerminal)).toBe(desktopSize[0]);
    await screenshot(desktop, 'desktop-owns-the-pty-again.png');
  } finally {
    await desktopContext.close();
  }
});
