import fs from 'node:fs';
import path from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { expect, test } from './support/droverHost';
import { addAgent, openWorkspace, saveProfiles, screenshot, stateBadge, terminalOf, typeLine } from './support/agents';
import { inboxBadge, inboxDialog, inboxMessage, lastStartedTaskId, openInbox, QUICK_FAKE_PROFILE, startFromPane, wakeStatus } from './support/agentBridge';
import { taskRow } from './support/workState';

function taskEndToast(page: Page, status: string, taskName: string): Locator {
  return page.getByRole('status').filter({ hasText: status }).filter({ hasText: taskName });
}

test('an agent hands a command to Drover, is woken with its result, and asks another agent', async ({ page, drover }) => {
  const folder = drover.makeFolder('shop-api');
  const url = await drover.startHost(['--project', folder]);
  const projectId = await saveProfiles(drover, folder, [QUICK_FAKE_PROFILE]);
  await openWorkspace(page, url, projectId);
  const panel = page.getByRole('region', { name: 'Work state' });

  const architect = await addAgent(page, 'Architect', 'Plans the work and reviews it', QUICK_FAKE_PROFILE.name);
  const backend = await addAgent(page, 'Backend', 'API and database migrations', QUICK_FAKE_PROFILE.name);
  await startFromPane(architect);
  await startFromPane(backend);
  const architectTerminal = terminalOf(architect, 'Architect');
  const backendTerminal = terminalOf(backend, 'Backend');

  // The agent calls run_in_background over MCP and goes idle while the task runs. The task waits
  // for a gate file rather than a timer, so it is surely still running while the page is checked.
  const build = 'until [ -e built.gate ]; do sleep 0.1; done; echo built-ok';
  await typeLine(page, architectTerminal, `/bg ${build}`);
  await expect(architectTerminal).toContainText('run_in_background: Started background task t-');
  const taskId = await lastStartedTaskId(architectTerminal);
  await expect(taskRow(panel, build).getByText('Running')).toBeVisible();
  await expect(taskRow(panel, build).getByRole('gridcell', { name: 'Architect', exact: true })).toBeVisible();
  await expect(architect.getByRole('img', { name: 'Running: 1 task' })).toHaveText('Running 1');
  await expect(stateBadge(architect, 'Ready')).toBeVisible();
  await expect(inboxBadge(architect, 0)).toBeVisible();
  await screenshot(page, 'agent-bridge-task-running.png');

  // The task ends: a toast, a message in the owner's inbox, and a wake typed into its terminal.
  fs.writeFileSync(path.join(folder, 'built.gate'), '');
  await expect(taskEndToast(page, 'Task done', build)).toBeVisible();
  await expect(inboxBadge(architect, 1)).toBeVisible();
  await expect(architectTerminal).toContainText(`[Drover] New message: Task ${taskId} "${build}" succeeded: exit code 0`);
  await expect(architectTerminal).toContainText('Done: [Drover]');
  await expect(architect.getByRole('img', { name: 'Task done: 1 new result' })).toHaveText('Task done');
  await expect(architect.getByRole('img', { name: /^Running/ })).toHaveCount(0);
  await screenshot(page, 'agent-bridge-woken.png');

  const inbox = await openInbox(page, architect, 'Architect');
  const result = inboxMessage(inbox, 'Task result from Drover');
  await expect(result).toContainText('Delivered');
  await expect(result).toContainText(/succeeded: exit code 0, after \d+s/);
  await expect(result).toContainText('Output tail:\nbuilt-ok');
  await expect(wakeStatus(inbox)).toContainText('Delivered');
  await expect(wakeStatus(inbox)).toContainText('1 message at');
  await screenshot(page, 'agent-bridge-inbox.png');
  await inbox.getByRole('button', { name: 'Mark all read' }).click();
  await expect(result).toContainText('Read');
  await expect(inbox.getByRole('button', { name: 'Mark all read' })).toBeDisabled();
  await page.keyboard.press('Escape');
  await expect(inbox).toBeHidden();
  await expect(inboxBadge(architect, 0)).toBeVisible();
  await expect(architect.getByRole('img', { name: /^Task done/ })).toHaveCount(0);

  // ask_agent: the question reaches Backend by a wake, its reply comes back as the call's result.
  await typeLine(page, architectTerminal, '/ask Backend what is the answer');
  await expect(backendTerminal).toContainText('from Architect: what is the answer');
  await expect(architectTerminal).toContainText('Answer from Backend: Backend says 42');
  await expect(inboxBadge(architect, 1)).toBeVisible();
  await expect(inboxBadge(backend, 1)).toBeVisible();

  // Keyboard: focus Backend's pane, open its inbox.
  await page.keyboard.press('Alt+2');
  await page.keyboard.press('Control+Shift+M');
  const backendInbox = inboxDialog(page, 'Backend');
  await expect(inboxMessage(backendInbox, 'Question from Architect')).toContainText('what is the answer');
  await page.keyboard.press('Escape');
  const architectInbox = await openInbox(page, architect, 'Architect');
  const reply = inboxMessage(architectInbox, 'Reply from Backend');
  await expect(reply).toContainText('Re: what is the answer');
  await expect(reply).toContainText('Backend says 42');
  await screenshot(page, 'agent-bridge-reply.png');
  await page.keyboard.press('Escape');
});

test('holds wakes, delivers a person\'s note, explains a refused wake, and reports tasks cut off by restarts', async ({ page, drover }) => {
  // Three hosts in turn, each booting and reconciling.
  test.setTimeout(120_000);
  const folder = drover.makeFolder('shop-api');
  let url = await drover.startHost(['--project', folder]);
  const projectId = await saveProfiles(drover, folder, [QUICK_FAKE_PROFILE]);
  await openWorkspace(page, url, projectId);
  const architect = await addAgent(page, 'Architect', 'Plans the work and reviews it', QUICK_FAKE_PROFILE.name);
  const terminal = terminalOf(architect, 'Architect');
  await startFromPane(architect);

  // Held: the note waits in the inbox instead of being typed in.
  let inbox = await openInbox(page, architect, 'Architect');
  await expect(wakeStatus(inbox)).toContainText('No wakes yet');
  await inbox.getByRole('button', { name: 'Hold wakes' }).click();
  await expect(wakeStatus(inbox)).toContainText('Wakes held');
  await inbox.getByLabel('Note to Architect').fill('Please rebase on main');
  await inbox.getByRole('button', { name: 'Send note' }).click();
  const note = inboxMessage(inbox, 'Note from You');
  await expect(note).toContainText('Waiting for wake');
  await expect(wakeStatus(inbox)).toContainText('1 message waits until you resume wakes or press Wake now.');
  // The open inbox shows it, so it is not new to the person.
  await expect(inboxBadge(architect, 0)).toBeAttached();
  await screenshot(page, 'agent-bridge-held.png');
  await page.keyboard.press('Escape');

  // Wake now on a stopped agent says why it cannot.
  await architect.getByRole('button', { name: 'Stop' }).click();
  await expect(stateBadge(architect, 'Exited')).toBeVisible();
  inbox = await openInbox(page, architect, 'Architect');
  await inbox.getByRole('button', { name: 'Wake now' }).click();
  await expect(inbox.getByRole('alert')).toContainText('Could not wake Architect: The agent is exited');
  await inbox.getByRole('button', { name: 'Resume wakes' }).click();
  await expect(wakeStatus(inbox)).toContainText('Delivers when Architect is ready (now exited).');
  await screenshot(page, 'agent-bridge-wake-refused.png');
  await page.keyboard.press('Escape');

  // Once the agent is ready again, the waiting wake delivers the note.
  await startFromPane(architect);
  await expect(terminal).toContainText('[Drover] New message: Note from a person: Please rebase on main');
  await expect(terminal).toContainText('Done: [Drover]');
  inbox = await openInbox(page, architect, 'Architect');
  await expect(note).toContainText('Delivered');
  await inbox.getByRole('button', { name: 'Mark all read' }).click();
  await expect(note).toContainText('Read');
  await page.keyboard.press('Escape');

  // A graceful restart interrupts the running task; its owner hears about it once it runs again.
  await typeLine(page, terminal, '/bg sleep 60');
  const gracefulId = await lastStartedTaskId(terminal);
  await expect(architect.getByRole('img', { name: 'Running: 1 task' })).toBeVisible();
  url = await drover.startHost(['--project', folder]);
  await openWorkspace(page, url, projectId);
  await expect(stateBadge(architect, 'Exited')).toBeVisible();
  await expect(inboxBadge(architect, 1)).toBeVisible();
  await expect(architect.getByRole('img', { name: 'Task interrupted: 1 new result' })).toBeVisible();
  inbox = await openInbox(page, architect, 'Architect');
  await expect(inboxMessage(inbox, 'Task result from Drover').first()).toContainText('Waiting for wake');
  await expect(wakeStatus(inbox)).toContainText('Waiting to deliver 1 message');
  await screenshot(page, 'agent-bridge-after-restart.png');
  await page.keyboard.press('Escape');
  await startFromPane(architect);
  await expect(terminal).toContainText(`Task ${gracefulId} "sleep 60" was interrupted`);

  // The host killed outright: boot reconciliation interrupts the task and posts the result. The
  // agent answers the wake first, so the next line typed is not joined to the wake's own.
  await expect(terminal).toContainText(`Done: [Drover] New message: Task ${gracefulId}`);
  await expect(stateBadge(architect, 'Ready')).toBeVisible();
  await typeLine(page, terminal, '/bg sleep 60');
  await expect.poll(() => lastStartedTaskId(terminal)).not.toBe(gracefulId);
  const killedId = await lastStartedTaskId(terminal);
  await expect(architect.getByRole('img', { name: 'Running: 1 task' })).toBeVisible();
  await drover.host().stop('SIGKILL');
  url = await drover.startHost(['--project', folder]);
  await openWorkspace(page, url, projectId);
  await expect(stateBadge(architect, 'Exited')).toBeVisible();
  // The first interrupted result was seen when the inbox showed it: only this one is new.
  await expect(inboxBadge(architect, 1)).toBeVisible();
  await startFromPane(architect);
  await expect(terminal).toContainText(`Task ${killedId} "sleep 60" was interrupted`);
  inbox = await openInbox(page, architect, 'Architect');
  await expect(inboxMessage(inbox, 'Task result from Drover')).toHaveCount(2);
  await expect(inboxMessage(inbox, 'Task result from Drover').first()).toContainText('Delivered');
  await screenshot(page, 'agent-bridge-after-kill.png');
});

test("an agent whose CLI takes Claude Code's channel events gets its wake through the channel, nothing typed", async ({ page, drover }) => {
  const folder = drover.makeFolder('channel-api');
  const url = await drover.startHost(['--project', folder]);
  const channelProfile = { ...QUICK_FAKE_PROFILE, id: 'fake-channels', name: 'Fake agent with channels', args: [...QUICK_FAKE_PROFILE.args, '--channels'] };
  const projectId = await saveProfiles(drover, folder, [channelProfile]);
  await openWorkspace(page, url, projectId);
  const listener = await addAgent(page, 'Listener', 'Takes wakes through its channel', channelProfile.name);
  await startFromPane(listener);
  const terminal = terminalOf(listener, 'Listener');

  await typeLine(page, terminal, '/bg echo channel-ok');
  await expect(terminal).toContainText('run_in_background: Started background task t-');
  const taskId = await lastStartedTaskId(terminal);
  await expect(terminal).toContainText(`channel drover: [Drover] New message: Task ${taskId} "echo channel-ok" succeeded: exit code 0`);
  await expect(terminal).toContainText('Done: [Drover]');
  await expect(terminal).not.toContainText('fake> [Drover]');
  await screenshot(page, 'agent-bridge-channel-wake.png');

  const inbox = await openInbox(page, listener, 'Listener');
  await expect(inboxMessage(inbox, 'Task result from Drover')).toContainText('Delivered');
  await expect(wakeStatus(inbox)).toContainText('Delivered');
});
