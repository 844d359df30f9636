import path from 'node:path';
import { expect, type Locator, type Page } from '@playwright/test';
import type { AgentSession } from '../../shared/entities/sessions';
import type { RpcClient } from '../../shared/rpcClient';
import { connectToDrover } from '../../electron/cli/socketClient';
import type { DroverWorld } from './droverHost';

export interface RaisedNotification {
  title: string;
  body: string;
  tag: string;
}

/**
 * Records every Web Notification the page raises (the real constructor still runs), so a test can
 * count them: Chromium shows none in headless mode and Playwright has no hook for them.
 */
export async function recordNotifications(page: Page): Promise<void> {
  await page.context().grantPermissions(['notifications']);
  await page.addInitScript(() => {
    const Real = window.Notification;
    const raised: { title: string; body: string; tag: string }[] = [];
    Reflect.set(window, '__raisedNotifications', raised);
    class Recorded extends Real {
      constructor(title: string, options?: NotificationOptions) {
        super(title, options);
        raised.push({ title, body: options?.body ?? '', tag: options?.tag ?? '' });
      }
    }
    Reflect.set(window, 'Notification', Recorded);
  });
}

export function raisedNotifications(page: Page): Promise<RaisedNotification[]> {
  return page.evaluate(() => Reflect.get(window, '__raisedNotifications') as RaisedNotification[]);
}

/** The title bar's Needs you button, by the count it names. */
export function needsYouButton(page: Page, count: number): Locator {
  return page.getByRole('button', { name: `Needs you ${count} ${count === 1 ? 'item' : 'items'}`, exact: true });
}

/** A connection over the local socket, as a script (or another window) would use. */
export async function withSocket<T>(drover: DroverWorld, use: (rpc: RpcClient) => Promise<T>): Promise<T> {
  const client = await connectToDrover(path.join(drover.dataDir, 'drover.sock'));
  try {
    return await use(client.rpc);
  } finally {
    client.close();
  }
}

/** Waits until the agent's latest session is in `state` (and asks the person, or not). */
export async function waitForSession(rpc: RpcClient, projectId: string, agentId: string, state: AgentSession['state'], needsInput = false): Promise<void> {
  await expect
    .poll(async () => {
      const session = (await rpc.call('getWorkState', { projectId })).sessions.find((s) => s.agentId === agentId);
      return session && `${session.state}${session.needsInput ? ' needs input' : ''}`;
    }, { timeout: 15_000 })
    .toBe(`${state}${needsInput ? ' needs input' : ''}`);
}

/** True while the element or something inside it has the keyboard focus. */
export function hasFocusWithin(locator: Locator): Promise<boolean> {
  return locator.evaluate((element) => element.contains(document.activeElement));
}
