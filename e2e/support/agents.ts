import fs from 'node:fs';
import path from 'node:path';
import { expect, type Locator, type Page } from '@playwright/test';
import type { AgentProfileInput } from '../../shared/entities/profiles';
import { connectToDrover } from '../../electron/cli/socketClient';
import { FAKE_PROFILE } from '../../test-support/fakeAgentProfile';
import { SHELL_AGENT_PROFILE } from '../../test-support/shellAgent';
import { withSocket } from './attention';
import type { DroverWorld } from './droverHost';
import { ARTIFACTS_DIR } from './workState';

export { FAKE_PROFILE, SHELL_AGENT_PROFILE };

/** Saves profiles over the local socket, as a script would, and returns the folder's project id. */
export async function saveProfiles(drover: DroverWorld, folder: string, profiles: AgentProfileInput[]): Promise<string> {
  const client = await connectToDrover(path.join(drover.dataDir, 'drover.sock'));
  try {
    for (const profile of profiles) await client.rpc.call('saveAgentProfile', { profile });
    return (await client.rpc.call('findProjectByPath', { path: folder })).id;
  } finally {
    client.close();
  }
}

export async function openWorkspace(page: Page, hostUrl: string, projectId: string): Promise<Locator> {
  await page.goto(`${hostUrl}#/project/${projectId}`);
  const agents = page.getByRole('region', { name: 'Agents', exact: true });
  await expect(agents).toBeVisible();
  return agents;
}

/** Adds an agent through the "Add agent" dialog. */
export async function addAgent(page: Page, name: string, role: string, profileName: string): Promise<Locator> {
  await page.getByRole('button', { name: 'Add agent' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add agent' });
  await dialog.getByLabel('Name', { exact: true }).fill(name);
  await dialog.getByLabel('Role', { exact: true }).fill(role);
  await dialog.getByLabel('Profile').selectOption({ label: profileName });
  await dialog.getByRole('button', { name: 'Add agent' }).click();
  await expect(dialog).toBeHidden();
  return agentPane(page, name);
}

/** A project (folder shop-api, its host started) with one agent of `profile` (a shell by default), added in the page. */
export async function addedAgent(page: Page, drover: DroverWorld, name: string, role: string, profile: AgentProfileInput = SHELL_AGENT_PROFILE) {
  const folder = drover.makeFolder('shop-api');
  const url = await drover.startHost(['--project', folder]);
  const projectId = await saveProfiles(drover, folder, [profile]);
  await openWorkspace(page, url, projectId);
  const pane = await addAgent(page, name, role, profile.name);
  return { folder, url, projectId, pane, terminal: terminalOf(pane, name) };
}

/** A project with one shell agent, added in the page and started (at its prompt). */
export async function startedShellAgent(page: Page, drover: DroverWorld, name: string, role: string) {
  const added = await addedAgent(page, drover, name, role);
  await added.pane.getByRole('button', { name: 'Start' }).click();
  await expect(stateBadge(added.pane, 'Ready')).toBeVisible();
  const agentId = await withSocket(drover, async (rpc) => (await rpc.call('getWorkState', { projectId: added.projectId })).agents[0]?.id as string);
  return { ...added, agentId };
}

export function agentPane(page: Page, name: string): Locator {
  return page.getByRole('region', { name, exact: true });
}

export function terminalOf(pane: Locator, name: string): Locator {
  return pane.getByRole('group', { name: `${name} terminal`, exact: true });
}

/** The state badge's word (Starting, Busy, Ready, Needs input, Limited, Exited, Not started). */
export function stateBadge(pane: Locator, state: string): Locator {
  return pane.getByText(state, { exact: true });
}

/** Types a line into the terminal the way a person does: click it, type, Enter. */
export async function typeLine(page: Page, terminal: Locator, line: string): Promise<void> {
  await terminal.click();
  await page.keyboard.type(line);
  await page.keyboard.press('Enter');
}

export async function screenshot(page: Page, name: string): Promise<void> {
  fs.mkdirSync(ARTIFACTS_DIR, { recursive: true });
  await page.screenshot({ path: path.join(ARTIFACTS_DIR, name), animations: 'disabled' });
}

/** The numbers of the lines `marker N` in order: complete is 1, 2, 3, … with nothing twice. */
export function numbered(lines: string[], marker: string): number[] {
  return lines.flatMap((line) => {
    const match = new RegExp(`^${marker} (\\d+)$`).exec(line);
    return match ? [Number(match[1])] : [];
  });
}

export function oneToN(count: number): number[] {
  return Array.from({ length: count }, (_, index) => index + 1);
}

/** How many times the pane's whole scrollback holds `term`, as its search bar counts it. */
export async function searchCount(page: Page, pane: Locator, terminal: Locator, term: string): Promise<number> {
  await terminal.click();
  await page.keyboard.press('Control+Shift+F');
  const field = pane.getByRole('searchbox');
  await field.fill(term);
  const results = pane.getByRole('search').getByRole('status');
  await expect(results).toHaveText(/^\d+ of \d+$/);
  const count = Number(/of (\d+)$/.exec((await results.textContent()) ?? '')?.[1]);
  await field.press('Escape');
  return count;
}

/** Picks one of an agent pane's More actions (Restart, Hold wakes, Edit agent…, Remove agent…) through its menu. */
export async function paneMenuAction(page: Page, agentName: string, action: string): Promise<void> {
  const name = `More actions for ${agentName}`;
  await agentPane(page, agentName).getByRole('button', { name, exact: true }).click();
  await page.getByRole('menu', { name, exact: true }).getByRole('menuitem', { name: action, exact: true }).click();
}
