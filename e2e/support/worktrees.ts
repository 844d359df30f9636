import path from 'node:path';
import { expect, type Locator, type Page } from '@playwright/test';
import { git } from '../../test-support/gitRepo';
import { openWorkspace, saveProfiles, SHELL_AGENT_PROFILE } from './agents';
import type { DroverWorld } from './droverHost';

/** `drover serve` on a repository with the POSIX shell profile, its project page open; returns the project id. */
export async function openRepoWithShell(page: Page, drover: DroverWorld, repo: string): Promise<string> {
  const url = await drover.startHost(['--project', repo]);
  const projectId = await saveProfiles(drover, repo, [SHELL_AGENT_PROFILE]);
  await openWorkspace(page, url, projectId);
  return projectId;
}

/** The folder of the agent's worktree, as git lists it. */
export function worktreeFolder(repo: string, agent: string): string {
  const line = git(repo, 'worktree', 'list', '--porcelain')
    .split('\n')
    .find((entry) => entry.startsWith('worktree ') && path.basename(entry).startsWith(`${agent}-`));
  if (!line) throw new Error(`no worktree of ${agent}`);
  return line.slice('worktree '.length);
}

/** Leases of port blocks go to a folder of this test's own; returns what puts the old one back. */
export function privatePortBlocks(drover: DroverWorld): () => void {
  const previous = process.env.DROVER_PORT_BLOCKS_DIR;
  process.env.DROVER_PORT_BLOCKS_DIR = path.join(drover.root, 'port-blocks');
  return () => {
    if (previous === undefined) delete process.env.DROVER_PORT_BLOCKS_DIR;
    else process.env.DROVER_PORT_BLOCKS_DIR = previous;
  };
}

/** The branch chip in an agent's pane header. */
export function branchOf(pane: Locator, agent: string): Locator {
  return pane.getByText(new RegExp(`^drover/${agent}-[a-z0-9]{4}$`));
}

/** Opens the agent's changes view from its pane header. */
export async function openChanges(page: Page, pane: Locator, agent: string): Promise<Locator> {
  await pane.getByRole('button', { name: 'Changes' }).click();
  const dialog = page.getByRole('dialog', { name: `Changes of ${agent}` });
  await expect(dialog.getByRole('region', { name: 'Diff' }).or(dialog.getByText(/^No changes yet/))).toBeVisible();
  return dialog;
}

/** The paths the changes view lists. */
export async function listedFiles(dialog: Locator): Promise<string[]> {
  const options = dialog.getByRole('listbox', { name: 'Changed files' }).getByRole('option');
  return (await options.locator('.changes-files__path').allInnerTexts()).map((text) => text.trim());
}
