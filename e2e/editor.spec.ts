import fs from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { makeRepo } from '../test-support/gitRepo';
import { waitFor } from '../test-support/waitFor';
import { addAgent } from './support/agents';
import { expect, test, type DroverWorld } from './support/droverHost';
import { branchOf, openChanges, openRepoWithShell, privatePortBlocks, worktreeFolder } from './support/worktrees';

const FAKE_EDITOR = path.resolve(__dirname, '../test-support/fixtures/fake-editor.mjs');

/** Sets Settings → Editor to the fake editor, which appends each argv it gets to `out`; back to the page it came from. */
async function useFakeEditor(page: Page, out: string): Promise<void> {
  await page.getByRole('link', { name: 'Settings' }).click();
  const command = page.getByRole('textbox', { name: 'Editor command' });
  await command.fill(`'${FAKE_EDITOR}' '${out}' --goto {file}:{line}:{column}`);
  await command.press('Enter');
  await expect(page.getByRole('combobox', { name: 'Editor' })).toHaveValue('');
  await expect(command).toHaveAttribute('aria-busy', 'false');
  await page.goBack();
}

/** Each argv the fake editor was started with, once there are `count`. */
async function editorRuns(out: string, count: number): Promise<string[][]> {
  const read = () => (fs.existsSync(out) ? fs.readFileSync(out, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as string[]) : []);
  await waitFor(() => read().length >= count, `the editor to have run ${count} times`);
  return read();
}

function makeShopRepo(drover: DroverWorld): string {
  return makeRepo(path.join(drover.root, 'shop'), { 'src/cart.ts': 'one\ntwo\nthree\nfour\nfive\n' });
}

test('the Changes view opens a changed file at its changed line in the editor of Settings → Editor, from the file heading and with e', async ({ page, drover }) => {
  const restorePorts = privatePortBlocks(drover);
  try {
    const repo = makeShopRepo(drover);
    const out = path.join(drover.root, 'editor-runs.jsonl');
    await openRepoWithShell(page, drover, repo);
    await useFakeEditor(page, out);
    const pane = await addAgent(page, 'writer', 'Edits the cart', 'POSIX shell');
    await expect(branchOf(pane, 'writer')).toBeVisible();
    const folder = worktreeFolder(repo, 'writer');
    fs.writeFileSync(path.join(folder, 'src', 'cart.ts'), 'one\ntwo\nTHREE\nfour\nfive\n');

    const changes = await openChanges(page, pane, 'writer');
    await changes.getByRole('button', { name: 'Open src/cart.ts in editor' }).click();
    await expect(changes.getByRole('status').filter({ hasText: 'Opened src/cart.ts:3 in your editor' })).toBeVisible();
    expect(await editorRuns(out, 1)).toEqual([['--goto', `${folder}/src/cart.ts:3:1`]]);

    await changes.getByRole('region', { name: 'Diff' }).focus();
    await page.keyboard.press('e');
    expect(await editorRuns(out, 2)).toEqual([
      ['--goto', `${folder}/src/cart.ts:3:1`],
      ['--goto', `${folder}/src/cart.ts:3:1`],
    ]);
  } finally {
    restorePorts();
  }
});
