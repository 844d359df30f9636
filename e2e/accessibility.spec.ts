import fs from 'node:fs';
import path from 'node:path';
import { connectToDrover } from '../electron/cli/socketClient';
import { git, makeRepo } from '../test-support/gitRepo';
import { waitFor } from '../test-support/waitFor';
import { withSocket } from './support/attention';
import { seriousViolations } from './support/axe';
import { openWorkspace, saveProfiles, screenshot, SHELL_AGENT_PROFILE } from './support/agents';
import { expect, test, type DroverWorld } from './support/droverHost';
import { openChanges, worktreeFolder } from './support/worktrees';

/** A repository project with two shell agents (one in its own worktree, with changes) and tasks that passed and failed. */
async function projectWithWork(drover: DroverWorld): Promise<{ url: string; projectId: string }> {
  const repo = makeRepo(path.join(drover.root, 'shop'), { 'README.md': 'hello\n' });
  const url = await drover.startHost(['--project', repo]);
  const projectId = await saveProfiles(drover, repo, [SHELL_AGENT_PROFILE]);
  const client = await connectToDrover(path.join(drover.dataDir, 'drover.sock'));
  try {
    const alpha = await client.rpc.call('createAgent', { projectId, name: 'alpha', role: 'backend', profileId: 'sh' });
    await client.rpc.call('createAgent', { projectId, name: 'beta', role: '', profileId: 'sh', workspace: { kind: 'new-worktree' } });
    await client.rpc.call('startAgent', { agentId: alpha.id, resume: false });
    const passed = await client.rpc.call('createTask', { projectId, command: 'echo ok', label: 'lint' });
    const failed = await client.rpc.call('createTask', { projectId, command: 'exit 3', label: 'unit tests', ownerAgentId: alpha.id });
    for (const task of [passed, failed]) {
      await waitFor(async () => ['succeeded', 'failed'].includes((await client.rpc.call('getTask', { taskId: task.id })).state), `${task.label} to end`);
    }
    const beta = worktreeFolder(repo, 'beta');
    fs.writeFileSync(path.join(beta, 'README.md'), 'hello, shop\n');
    fs.writeFileSync(path.join(beta, 'cart.ts'), 'export function total(prices: number[]): number {\n  return prices.reduce((sum, price) => sum + price, 0);\n}\n');
    git(repo, 'status');
  } finally {
    client.close();
  }
  return { url, projectId };
}

for (const theme of ['dark', 'light'] as const) {
  test(`the main screens have no serious or critical WCAG 2.1 AA violations (axe-core), ${theme} theme`, async ({ page, drover }) => {
    test.setTimeout(120_000);
    const { url, projectId } = await projectWithWork(drover);
    await withSocket(drover, (rpc) => rpc.call('updateAppSettings', { settings: { theme } }));
    const found: Record<string, string[]> = {};
    const audit = async (screen: string) => {
      await expect(page.locator(`html[data-theme="${theme}"]`)).toHaveCount(1);
      found[screen] = await seriousViolations(page);
      await screenshot(page, `axe-${theme}-${screen.replaceAll(' ', '-')}.png`);
    };

    await page.goto(url);
    await expect(page.getByRole('heading', { name: 'Projects', level: 1 })).toBeVisible();
    await audit('projects list');

    const agents = await openWorkspace(page, url, projectId);
    await expect(page.getByRole('row').filter({ hasText: 'unit tests' })).toBeVisible();
    // A task ending while the page shows the project: its toast is on screen too.
    await withSocket(drover, (rpc) => rpc.call('createTask', { projectId, command: 'exit 1', label: 'e2e' }));
    await expect(page.getByRole('status').filter({ hasText: 'e2e' })).toBeVisible();
    await audit('project with agents and tasks');

    const search = page.getByRole('searchbox', { name: 'Search tasks' });
    await search.fill('no task is called this');
    await expect(page.getByRole('gridcell', { name: 'No tasks match this filter.' })).toBeVisible();
    await audit('task list with nothing to show');
    await search.fill('');

    const changes = await openChanges(page, page.getByRole('region', { name: 'beta', exact: true }), 'beta');
    await expect(changes.getByText('reduce', { exact: false })).toBeVisible();
    await audit('Changes');
    await page.keyboard.press('Escape');
    await expect(changes).toBeHidden();

    await agents.getByRole('button', { name: 'Add agent' }).click();
    await expect(page.getByRole('dialog', { name: 'Add agent' })).toBeVisible();
    await audit('Add agent');
    await page.keyboard.press('Escape');

    await page.keyboard.press('Control+k');
    await expect(page.getByRole('dialog', { name: 'Command palette' })).toBeVisible();
    await audit('palette');
    await page.keyboard.press('Escape');

    await page.goto(`${url}#/settings`);
    await expect(page.getByRole('heading', { name: 'Settings', level: 1 })).toBeVisible();
    await audit('Settings');

    await page.setViewportSize({ width: 390, height: 844 });
    await openWorkspace(page, url, projectId);
    await expect(page.getByRole('region', { name: 'alpha', exact: true })).toBeVisible();
    await audit('project at phone width');

    expect(found).toEqual(Object.fromEntries(Object.keys(found).map((screen) => [screen, []])));
  });
}
