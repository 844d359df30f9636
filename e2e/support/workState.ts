import fs from 'node:fs';
import path from 'node:path';
import { expect, type Locator, type Page } from '@playwright/test';
import { connectToDrover } from '../../electron/cli/socketClient';
import { runCli } from '../../test-support/droverProcess';
import type { DroverWorld } from './droverHost';

export const ARTIFACTS_DIR = 'e2e-artifacts';

/** Runs `drover task run` from inside the project folder and returns the new task's id. */
export async function runTask(drover: DroverWorld, folder: string, command: string, label?: string): Promise<string> {
  const labelArgs = label ? ['--label', label] : [];
  const result = await runCli(['--data-dir', drover.dataDir, 'task', 'run', ...labelArgs, '--', command], { cwd: folder });
  expect(result.code, result.stderr).toBe(0);
  return result.stdout.trim();
}

/** Sets a project setting over the local socket, as a script or another client would. */
export async function setTaskConcurrency(drover: DroverWorld, folder: string, taskConcurrency: number): Promise<string> {
  const client = await connectToDrover(path.join(drover.dataDir, 'drover.sock'));
  try {
    const project = await client.rpc.call('findProjectByPath', { path: folder });
    await client.rpc.call('updateProjectSettings', { projectId: project.id, settings: { taskConcurrency } });
    return project.id;
  } finally {
    client.close();
  }
}

/** Opens the app at a host URL straight onto a project's page. */
export async function openProject(page: Page, hostUrl: string, projectId: string): Promise<Locator> {
  await page.goto(`${hostUrl}#/project/${projectId}`);
  const panel = page.getByRole('region', { name: 'Work state' });
  await expect(panel.getByRole('grid', { name: 'Tasks' })).toBeVisible();
  return panel;
}

/** The grid row of a task, found by its label (or command). */
export function taskRow(panel: Locator, name: string): Locator {
  return panel.getByRole('row').filter({ hasText: name });
}

export async function screenshotPanel(panel: Locator, name: string): Promise<void> {
  fs.mkdirSync(ARTIFACTS_DIR, { recursive: true });
  await panel.screenshot({ path: path.join(ARTIFACTS_DIR, name), animations: 'disabled' });
}
