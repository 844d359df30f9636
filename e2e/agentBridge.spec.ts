import type { Locator, Page } from '@playwright/test';
import { expect, test } from './support/droverHost';
import { addAgent, agentPane, openWorkspace, saveProfiles, screenshot, stateBadge, terminalOf, typeLine } from './support/agents';
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

  // The agent calls run_in_background over MCP and goes idle while the task runs.
  await typeLine(page, architectTerminal, '/bg sleep 3; echo built-ok');
  await expect(architectTerminal).toContainText('run_in_background: Started background task t-');
  const taskId = await lastStartedTaskId(architectTerminal);
  await expect(taskRow(panel, 'sleep 3; echo built-ok').getByText('Running')).toBeVisible();
  await expect(architect.getByRole('img', { name: 'Running: 1 task' })).toHaveText('Running 1');
  await expect(stateBadge(architect, 'Ready')).toBeVisible();
  await expect(inboxBadge(architect, 0)).toBeVisible();
  await screenshot(page, 'agent-bridge-task-running.png');

  // The task ends: a toast, a message in the owner's inbox, and a wake typed into its terminal.
  await expect(taskEndToast(page, 'Task done', 'sleep 3; echo built-ok')).toBeVisible({ timeout: 15_000 });
  await expect(inboxBadge(architect, 1)).toBeVisible();
  await expect(architectTerminal).toContainText(`[Drover] 1 new message: Task ${taskId} "sleep 3; echo built-ok" succeeded: exit code 0`);
  await expect(architectTerminal).toContainText('Done: [Drover]');
  await expect(architect.getByRole('img', { name: 'Task done: 1 result not read yet' })).toHaveText('Task done');
  await expect(architect.getByRole('img', { name: /^Running/ })).toHaveCount(0);
  await screenshot(page, 'agent-bridge-woken.png');

  const inbox = await openInbox(page, architect, 'Architect');
  const result = inboxMessage(inbox, 'Task result from Drover');
  await expect(result).toContainText('Delivered');
  await expect(result).toContainText(/succeeded: exit code 0, after \ds/);
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
