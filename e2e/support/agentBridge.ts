import { expect, type Locator, type Page } from '@playwright/test';
import type { AgentProfileInput } from '../../shared/entities/profiles';
import { FAKE_PROFILE, stateBadge } from './agents';

/** The fake agent with a short think time, so hook-driven Busy/Ready turns round fast. */
export const QUICK_FAKE_PROFILE: AgentProfileInput = {
  ...FAKE_PROFILE,
  id: 'fake-quick',
  name: 'Quick fake agent',
  env: { FAKE_AGENT_WORK_MS: '300' },
};

export async function startFromPane(pane: Locator): Promise<void> {
  await pane.getByRole('button', { name: 'Start' }).click();
  await expect(stateBadge(pane, 'Ready')).toBeVisible();
}

/** The id of the latest task the agent started with run_in_background, as its terminal printed it. */
export async function lastStartedTaskId(terminal: Locator): Promise<string> {
  let taskId = '';
  await expect
    .poll(async () => {
      const started = [...((await terminal.textContent()) ?? '').matchAll(/Started background task (t-[a-z0-9]+)/g)];
      taskId = started.at(-1)?.[1] ?? '';
      return taskId;
    })
    .not.toBe('');
  return taskId;
}

export function inboxBadge(pane: Locator, count: number): Locator {
  return pane.getByRole('img', { name: `${count} new ${count === 1 ? 'message' : 'messages'} in inbox`, exact: true });
}

export async function openInbox(page: Page, pane: Locator, agentName: string): Promise<Locator> {
  await pane.getByRole('button', { name: /^Inbox, / }).click();
  const inbox = inboxDialog(page, agentName);
  await expect(inbox).toBeVisible();
  return inbox;
}

export function inboxDialog(page: Page, agentName: string): Locator {
  return page.getByRole('dialog', { name: `${agentName} inbox` });
}

/** A message in the inbox list, by its kind and sender ("Task result from Drover"). */
export function inboxMessage(inbox: Locator, kindAndSender: string): Locator {
  return inbox.getByRole('list', { name: 'Messages' }).getByRole('article', { name: kindAndSender });
}

export function wakeStatus(inbox: Locator): Locator {
  return inbox.getByRole('region', { name: 'Wake' });
}
