import fs from 'node:fs';
import path from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { makeRepo } from '../test-support/gitRepo';
import { waitFor } from '../test-support/waitFor';
import { addAgent, openWorkspace, saveProfiles, SHELL_AGENT_PROFILE, terminalOf } from './support/agents';
import { runTask, taskRow } from './support/workState';
import { expect, test, type DroverWorld } from './support/droverHost';
import { branchOf, openChanges, openRepoWithShell, privatePortBlocks, worktreeFolder } from './support/worktrees';

const FAKE_EDITOR = path.resolve(__dirname, '../test-support/fixtures/fake-editor.mjs');
const FAKE_TERMINAL_EDITOR = path.resolve(__dirname, '../test-support/fixtures/fake-terminal-editor.sh');

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

/** Where `text` is drawn in a row of the terminal's DOM renderer. */
function middleOf(row: Locator, text: string): Promise<{ x: number; y: number }> {
  return row.evaluate((element, needle) => {
    const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const at = node.textContent?.indexOf(needle) ?? -1;
      if (at < 0) continue;
      const range = document.createRange();
      range.setStart(node, at);
      range.setEnd(node, at + needle.length);
      const rect = range.getBoundingClientRect();
      return { x: rect.x + rect.width / 2, y: rect.y + rect.height / 2 };
    }
    throw new Error(`"${needle}" is not drawn in one piece`);
  }, text);
}

function makeShopRepo(drover: DroverWorld): string {
  return makeRepo(path.join(drover.root, 'shop'), { 'src/cart.ts': 'one\ntwo\nthree\nfour\nfive\n' });
}

/** A writer agent whose worktree changed the third line of src/cart.ts, its Changes view open. */
async function writerChangedCart(page: Page, repo: string): Promise<{ folder: string; changes: Locator }> {
  const pane = await addAgent(page, 'writer', 'Edits the cart', 'POSIX shell');
  await expect(branchOf(pane, 'writer')).toBeVisible();
  const folder = worktreeFolder(repo, 'writer');
  fs.writeFileSync(path.join(folder, 'src', 'cart.ts'), 'one\ntwo\nTHREE\nfour\nfive\n');
  return { folder, changes: await openChanges(page, pane, 'writer') };
}

test('the Changes view opens a changed file at its changed line in the editor of Settings → Editor, from the file heading, with e, from a comment and from the palette', async ({ page, drover }) => {
  const restorePorts = privatePortBlocks(drover);
  try {
    const repo = makeShopRepo(drover);
    const out = path.join(drover.root, 'editor-runs.jsonl');
    await openRepoWithShell(page, drover, repo);
    await useFakeEditor(page, out);
    const { folder, changes } = await writerChangedCart(page, repo);
    await changes.getByRole('button', { name: 'Open in editor: src/cart.ts' }).click();
    await expect(changes.getByRole('status').filter({ hasText: 'Opened src/cart.ts:3 in your editor' })).toBeVisible();
    expect(await editorRuns(out, 1)).toEqual([['--goto', `${folder}/src/cart.ts:3:1`]]);

    await changes.getByRole('region', { name: 'Diff' }).focus();
    await page.keyboard.press('e');
    expect(await editorRuns(out, 2)).toEqual([
      ['--goto', `${folder}/src/cart.ts:3:1`],
      ['--goto', `${folder}/src/cart.ts:3:1`],
    ]);

    // At the lines selected for a comment, and from the comment once written.
    const diff = changes.getByRole('region', { name: 'Diff' });
    await diff.focus();
    await page.keyboard.press('c');
    const draft = changes.getByRole('form', { name: 'New comment' });
    await draft.getByRole('spinbutton', { name: 'First line' }).fill('4');
    await diff.focus();
    await page.keyboard.press('e');
    expect((await editorRuns(out, 3))[2]).toEqual(['--goto', `${folder}/src/cart.ts:4:1`]);
    await draft.getByRole('textbox', { name: 'Comment' }).fill('Why the capitals above?');
    await draft.getByRole('button', { name: 'Add comment' }).click();
    await changes.getByRole('button', { name: 'Open src/cart.ts, line 4 in editor' }).click();
    expect((await editorRuns(out, 4))[3]).toEqual(['--goto', `${folder}/src/cart.ts:4:1`]);

    // The palette offers the files of each agent's diff, from the project page.
    await page.keyboard.press('Escape');
    await expect(changes).toBeHidden();
    await page.keyboard.press('Control+K');
    await page.keyboard.type('open file in editor writer');
    await page.keyboard.press('Enter');
    const picker = page.getByRole('dialog', { name: 'Open a file writer changed' });
    await picker.getByRole('button', { name: 'Open src/cart.ts in editor' }).click();
    await expect(picker.getByRole('status')).toHaveText('Opened src/cart.ts:3 in your editor');
    expect((await editorRuns(out, 5))[4]).toEqual(['--goto', `${folder}/src/cart.ts:3:1`]);
  } finally {
    restorePorts();
  }
});

test("a path:line in a task's output is a link that opens the file at that line and column, relative to the task's folder; without an editor it says where to set one", async ({ page, drover }) => {
  const repo = makeShopRepo(drover);
  const out = path.join(drover.root, 'editor-runs.jsonl');
  await openRepoWithShell(page, drover, repo);
  await runTask(drover, path.join(repo, 'src'), "printf 'warning at cart.ts:4:2: four\\n'", 'lint');
  const panel = page.getByRole('region', { name: 'Work state' });
  const output = page.getByRole('dialog', { name: 'Output: lint' });
  const clickReference = async () => {
    await taskRow(panel, 'lint').getByText('Task done').click();
    const row = output.locator('.xterm-rows > div', { hasText: 'warning at cart.ts:4:2: four' });
    await expect(row).toBeVisible();
    const link = await middleOf(row, 'cart.ts:4:2');
    await page.mouse.move(link.x - 20, link.y);
    await page.mouse.move(link.x, link.y);
    await page.mouse.click(link.x, link.y);
  };

  await clickReference();
  await expect(output.getByRole('alert')).toHaveText('Could not open it in your editor: No editor is set: choose one in Settings → Editor.');
  await page.keyboard.press('Escape');

  // A command that cannot say where the file goes is refused as it is saved.
  await page.getByRole('link', { name: 'Settings' }).click();
  const command = page.getByRole('textbox', { name: 'Editor command' });
  await command.fill('code -g');
  await command.press('Enter');
  await expect(page.getByRole('alert')).toContainText('The editor command must say where the file goes: put {file} in one of its arguments.');
  await page.goBack();

  await useFakeEditor(page, out);
  await clickReference();
  await expect(output.getByRole('status').filter({ hasText: 'Opened cart.ts:4 in your editor' })).toBeVisible();
  expect(await editorRuns(out, 1)).toEqual([['--goto', `${repo}/src/cart.ts:4:2`]]);
});

test("the terminal editor preset opens a changed file at its line in $VISUAL, in a new Shell pane in the agent's worktree that takes the focus and stays a shell", async ({ page, drover }) => {
  const restorePorts = privatePortBlocks(drover);
  try {
    const repo = makeShopRepo(drover);
    const visual = `${FAKE_TERMINAL_EDITOR} --from-visual`;
    const url = await drover.startHost(['--project', repo], { ...process.env, SHELL: '/bin/sh', VISUAL: visual, EDITOR: 'not-this-one' });
    await openWorkspace(page, url, await saveProfiles(drover, repo, [SHELL_AGENT_PROFILE]));

    await page.getByRole('link', { name: 'Settings' }).click();
    await page.getByRole('combobox', { name: 'Editor' }).selectOption({ label: 'Terminal editor ($VISUAL / $EDITOR)' });
    await expect(page.getByRole('textbox', { name: 'Editor command' })).toHaveValue('$EDITOR +{line} {file}');
    await expect(page.getByRole('status').filter({ hasText: 'This host runs' })).toHaveText(
      `This host runs ${visual} (its $VISUAL) in a new Shell pane, in the worktree of the file, which stays a shell once the editor exits.`,
    );
    await page.goBack();

    const { folder, changes } = await writerChangedCart(page, repo);
    await changes.getByRole('button', { name: 'Open in editor: src/cart.ts' }).click();
    await expect(changes).toBeHidden();

    const editorPane = page.getByRole('region', { name: 'Edit cart.ts', exact: true });
    const screen = terminalOf(editorPane, 'Edit cart.ts').locator('.xterm-rows');
    await expect(screen).toContainText('fake-editor arg: --from-visual');
    await expect(screen).toContainText('fake-editor arg: +3');
    await expect(screen).toContainText('fake-editor arg: src/cart.ts');
    await expect(screen).toContainText(`fake-editor cwd: ${fs.realpathSync(folder)}`);

    // The new pane has the focus: what the person types goes to its shell, still in the worktree.
    await page.keyboard.type('echo "typed into $(pwd -P)"');
    await page.keyboard.press('Enter');
    await expect(screen).toContainText(`typed into ${fs.realpathSync(folder)}`);
  } finally {
    restorePorts();
  }
});

test('the terminal editor preset says in Settings when the host has neither $VISUAL nor $EDITOR', async ({ page, drover }) => {
  const repo = makeShopRepo(drover);
  const url = await drover.startHost(['--project', repo], { ...process.env, VISUAL: '', EDITOR: '' });
  await openWorkspace(page, url, await saveProfiles(drover, repo, [SHELL_AGENT_PROFILE]));
  await page.getByRole('link', { name: 'Settings' }).click();
  await page.getByRole('combobox', { name: 'Editor' }).selectOption({ label: 'Terminal editor ($VISUAL / $EDITOR)' });
  await expect(page.getByRole('status').filter({ hasText: 'Neither' })).toHaveText(
    "Neither $VISUAL nor $EDITOR is set in the Drover host's environment, so opening a file is refused: set one before starting the host, or choose another editor.",
  );
});
