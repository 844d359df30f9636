import fs from 'node:fs';
import path from 'node:path';
import type { Locator } from '@playwright/test';
import type { AgentSession } from '../shared/entities/sessions';
import type { Task } from '../shared/entities/tasks';
import { FLOW_CONTROL } from '../electron/core/sessions/terminalStream';
import { runCli } from '../test-support/droverProcess';
import { agentPane, numbered, oneToN, openWorkspace, screenshot, searchCount, startedShellAgent, stateBadge, terminalOf, typeLine } from './support/agents';
import { withSocket } from './support/attention';
import { expect, test, type DroverWorld } from './support/droverHost';
import { runTask, taskRow } from './support/workState';

/** The visible rows of a pane's terminal as the page draws them, trailing blanks trimmed. */
async function paneRows(terminal: Locator): Promise<string[]> {
  const rows = await terminal.locator('.xterm-rows > div').allTextContents();
  return rows.map((row) => row.replace(/\u00a0/g, ' ').trimEnd());
}

/**
 * The host's mirror of the agent's terminal: every line of it (a wrapped line is one), and its
 * visible rows (a wrapped line cut at the width, as the terminal draws it; the output here is ASCII).
 */
async function mirror(drover: DroverWorld, agentId: string): Promise<{ lines: string[]; screen: string[] }> {
  const { text, cols, rows } = await withSocket(drover, (rpc) => rpc.call('readAgentScreen', { agentId }));
  const lines = text.split('\n').map((line) => line.trimEnd());
  const drawn = lines.flatMap((line) => (line.length === 0 ? [''] : (line.match(new RegExp(`.{1,${cols}}`, 'g')) ?? []).map((row) => row.trimEnd())));
  return { lines, screen: drawn.slice(-rows) };
}

async function session(drover: DroverWorld, projectId: string, agentId: string): Promise<AgentSession | undefined> {
  return withSocket(drover, async (rpc) => (await rpc.call('getWorkState', { projectId })).sessions.find((s) => s.agentId === agentId));
}

async function task(drover: DroverWorld, taskId: string): Promise<Task> {
  return withSocket(drover, (rpc) => rpc.call('getTask', { taskId }));
}

/** The pane shows exactly what the host's mirror holds: the same visible rows. */
async function expectPaneMatchesMirror(drover: DroverWorld, terminal: Locator, agentId: string): Promise<void> {
  await expect.poll(async () => (await paneRows(terminal)).join('\n')).toBe((await mirror(drover, agentId)).screen.join('\n'));
}

for (const signal of ['SIGTERM', 'SIGKILL'] as const) {
  test(`agents and tasks outlive drover serve (${signal} of its process group), and every page shows exactly what the agent drew`, async ({ page, drover }) => {
    test.setTimeout(240_000);
    const { folder, projectId, pane, terminal, agentId } = await startedShellAgent(page, drover, 'Counter', 'Counts');
    const panel = page.getByRole('region', { name: 'Work state' });
    // printf keeps the marker out of the command line itself, so only the output holds it.
    await typeLine(page, terminal, "i=0; until [ -e stop.gate ]; do i=$((i+1)); printf 'ti%sk %d\\n' c $i; sleep 0.2; done; echo counted $i");
    const taskId = await runTask(drover, folder, "i=0; until [ -e task.gate ]; do i=$((i+1)); echo step $i; sleep 0.3; done; echo task finished", 'steady task');
    await expect(taskRow(panel, 'steady task').getByText('Running')).toBeVisible();
    await expect.poll(async () => numbered((await mirror(drover, agentId)).lines, 'tick').length).toBeGreaterThan(3);
    const pid = (await session(drover, projectId, agentId))?.pid;
    expect(pid).toBeGreaterThan(0);

    // serve goes; the host, the agent and the task stay, and the page says it was serve that went.
    await drover.host().stopServe(signal);
    await expect(page.getByRole('alert').filter({ hasText: 'drover serve, which served this page, stopped — reconnecting… Agents and tasks go on in the Drover host' })).toBeVisible();
    await expect(stateBadge(pane, 'Unknown')).toBeVisible();
    await expect(pane.getByRole('status').filter({ hasText: 'drover serve, which served this page, stopped — reconnecting… The agent goes on in the Drover host' })).toBeVisible();
    await expect(taskRow(panel, 'steady task').getByText('Unknown')).toBeVisible();
    await expect(pane.getByRole('button', { name: 'Stop' })).toBeDisabled();
    await expect(taskRow(panel, 'steady task').getByRole('button', { name: 'Cancel' })).toBeDisabled();
    await screenshot(page, `lasting-host-away-${signal}.png`);
    const status = await runCli(['--data-dir', drover.dataDir, 'host', 'status']);
    expect(status.code, status.stderr).toBe(0);
    expect(status.stdout).toMatch(/Drover host: running, pid \d+/);
    expect(status.stdout).toContain('running:  1 agent and 1 task');
    const ticksWhileAway = numbered((await mirror(drover, agentId)).lines, 'tick').length;
    await expect.poll(async () => numbered((await mirror(drover, agentId)).lines, 'tick').length).toBeGreaterThan(ticksWhileAway + 10);

    // A new serve opens the door on the same port: the page reconnects by itself.
    await drover.startServe();
    await expect(page.getByRole('alert')).toHaveCount(0, { timeout: 30_000 });
    await expect(pane.getByRole('status').filter({ hasText: 'reconnecting' })).toHaveCount(0);
    // Its counting command still runs: a shell is busy while a command runs.
    await expect(stateBadge(pane, 'Busy')).toBeVisible();
    expect((await session(drover, projectId, agentId))?.pid).toBe(pid);
    fs.writeFileSync(path.join(folder, 'task.gate'), '');
    await expect(taskRow(panel, 'steady task').getByText('Task done')).toBeVisible();
    expect(await task(drover, taskId)).toMatchObject({ state: 'succeeded', attempt: 1, exitCode: 0 });

    // Everything the agent printed, once each, in the host's mirror and in the pane.
    fs.writeFileSync(path.join(folder, 'stop.gate'), '');
    await expect(terminal).toContainText(/counted \d+/);
    const lines = (await mirror(drover, agentId)).lines;
    const counted = Number(/counted (\d+)/.exec(lines.join('\n'))?.[1]);
    expect(numbered(lines, 'tick')).toEqual(oneToN(counted));
    await expectPaneMatchesMirror(drover, terminal, agentId);
    expect(await searchCount(page, pane, terminal, 'tick ')).toBe(counted);

    // Away to the settings and back, and a reload: the same screen again.
    await page.getByRole('link', { name: 'Settings' }).click();
    await expect(page.getByRole('heading', { name: 'Settings' })).toBeVisible();
    await page.goBack();
    await expect(terminalOf(agentPane(page, 'Counter'), 'Counter')).toContainText(/counted \d+/);
    await expectPaneMatchesMirror(drover, terminal, agentId);
    await page.reload();
    await expect(terminal).toContainText(/counted \d+/);
    await expectPaneMatchesMirror(drover, terminal, agentId);
    expect(await searchCount(page, pane, terminal, 'tick ')).toBe(counted);

    // A reload in the middle of a flood: every line once.
    await typeLine(page, terminal, "i=0; while [ $i -lt 900 ]; do i=$((i+1)); printf 'fl%sd %d\\n' oo $i; [ $((i % 30)) -eq 0 ] && sleep 0.05; done; echo flooded");
    await expect.poll(async () => numbered((await mirror(drover, agentId)).lines, 'flood').length).toBeGreaterThan(100);
    await page.reload();
    await expect(terminal).toContainText('flooded');
    expect(numbered((await mirror(drover, agentId)).lines, 'flood')).toEqual(oneToN(900));
    await expectPaneMatchesMirror(drover, terminal, agentId);
    expect(await searchCount(page, pane, terminal, 'flood ')).toBe(900);
    await screenshot(page, `lasting-host-after-flood-${signal}.png`);

    // Stopping the host is explicit, and ends the work as a quit did; the next start reconciles.
    const stopped = await runCli(['--data-dir', drover.dataDir, 'host', 'stop', '--force']);
    expect(stopped.code, stopped.stderr).toBe(0);
    expect(stopped.stdout).toContain('Drover host stopped (1 agent and 0 tasks ended)');
    // The page says so, and no longer that the agent goes on.
    await expect(page.getByRole('alert').filter({ hasText: 'The Drover host was stopped — reconnecting… Its agents and running tasks ended with it' })).toBeVisible();
    await expect(pane.getByRole('status').filter({ hasText: 'The Drover host was stopped — reconnecting… The agent ended with it' })).toBeVisible();
    await expect(page.getByText(/go on/)).toHaveCount(0);
    await drover.startHost(['--project', folder]);
    await expect(stateBadge(pane, 'Exited')).toBeVisible({ timeout: 30_000 });
    await expect(terminal).toContainText('Session ended when Drover stopped');
    expect(await session(drover, projectId, agentId)).toMatchObject({ state: 'exited', endReason: 'app-restart' });
  });
}

test('a page paused in the debugger holds no agent back, and once it runs again shows what the host has', async ({ page, drover, browser }) => {
  test.setTimeout(180_000);
  const { folder, url, projectId, terminal, agentId } = await startedShellAgent(page, drover, 'Flooder', 'Floods');

  // Another person's page (a browser context of its own: a renderer process of its own), stopped in the debugger.
  const elsewhere = await browser.newContext({ viewport: page.viewportSize() });
  const paused = await elsewhere.newPage();
  await openWorkspace(paused, url, projectId);
  const pausedTerminal = terminalOf(agentPane(paused, 'Flooder'), 'Flooder');
  await expect(pausedTerminal).toContainText('$');
  const debuggerSession = await elsewhere.newCDPSession(paused);
  await debuggerSession.send('Debugger.enable');
  await debuggerSession.send('Debugger.pause');

  // Rows of 10 characters or more, three times the pause mark: they get through only if the paused page stops holding the agent back.
  const rows = Math.ceil((3 * FLOW_CONTROL.highWatermark) / 10);
  fs.writeFileSync(path.join(folder, 'flood.js'), `for (let i = 1; i <= ${rows}; i++) console.log('row ' + i); console.log('flood ' + 'done');\n`);
  await typeLine(page, terminal, `'${process.execPath}' flood.js`);
  await expect(terminal).toContainText('flood done', { timeout: 60_000 });
  expect(numbered((await mirror(drover, agentId)).lines, 'row').slice(-3)).toEqual([rows - 2, rows - 1, rows]);

  await debuggerSession.send('Debugger.resume');
  await expect(pausedTerminal).toContainText('flood done', { timeout: 30_000 });
  await expectPaneMatchesMirror(drover, pausedTerminal, agentId);
  await expectPaneMatchesMirror(drover, terminal, agentId);
  await elsewhere.close();
});

test('a host killed while serve, an agent and a task run comes back: the task reads Interrupted, the page reconnects, the agent shows the screen it had', async ({ page, drover }) => {
  test.setTimeout(180_000);
  const { folder, pane, terminal, agentId } = await startedShellAgent(page, drover, 'Painter', 'Draws');
  const panel = page.getByRole('region', { name: 'Work state' });

  // Colours, a line redrawn over itself, a wrapped line; then a narrower window, drawn again at that size.
  await typeLine(page, terminal, "printf '\\033[32mgreen\\033[0m \\033[7mreverse\\033[0m\\n'; printf 'progress 10%%\\rprogress 99%%\\n'; printf 'wraps %.0s' $(seq 30); echo");
  await expect(terminal).toContainText('progress 99%');
  const wide = (await withSocket(drover, (rpc) => rpc.call('readAgentScreen', { agentId }))).cols;
  await page.setViewportSize({ width: 900, height: 700 });
  await expect.poll(async () => (await withSocket(drover, (rpc) => rpc.call('readAgentScreen', { agentId }))).cols).toBeLessThan(wide);
  await typeLine(page, terminal, "printf 'narrow %.0s' $(seq 20); echo; echo drawn narrow");
  await expect(terminal).toContainText('drawn narrow');
  // A line typed at the prompt, not yet sent, when the host dies.
  await terminal.click();
  await page.keyboard.type("true '[Drover] New message'");
  await expect.poll(async () => (await mirror(drover, agentId)).screen).toContain("$ true '[Drover] New message'");
  await runTask(drover, folder, 'echo started; sleep 300', 'long task');
  await expect(taskRow(panel, 'long task').getByText('Running')).toBeVisible();
  const before = await withSocket(drover, (rpc) => rpc.call('readAgentScreen', { agentId, styled: true }));
  const beforeText = (await withSocket(drover, (rpc) => rpc.call('readAgentScreen', { agentId }))).text;

  // The host itself dies (not serve): serve starts a new one on the same door.
  const killed = drover.host().hostPid();
  process.kill(killed, 'SIGKILL');
  await expect(page.getByRole('alert').filter({ hasText: 'without a word from it' })).toBeVisible();
  await expect.poll(() => drover.host().hostAlive() && drover.host().hostPid() !== killed, { timeout: 30_000 }).toBe(true);
  await expect(page.getByRole('alert')).toHaveCount(0, { timeout: 30_000 });

  await expect(taskRow(panel, 'long task').getByText('Interrupted')).toBeVisible();
  await expect(stateBadge(pane, 'Exited')).toBeVisible();
  await expect(pane.getByText('ended when the host died')).toBeVisible();
  const after = await withSocket(drover, (rpc) => rpc.call('readAgentScreen', { agentId, styled: true }));
  const afterText = (await withSocket(drover, (rpc) => rpc.call('readAgentScreen', { agentId }))).text;
  // The pane's footer ("Press Enter here to start it again") takes rows from the screen: the width stays.
  expect(after.cols).toBe(before.cols);
  expect(afterText).toBe(`${beforeText}\n── Session ended when the Drover host died. Start it again to continue. ──\n`);
  expect(after.text.startsWith(`${before.text}\n`)).toBe(true);
  await expectPaneMatchesMirror(drover, terminal, agentId);
  await screenshot(page, 'lasting-host-crashed-and-back.png');
});
