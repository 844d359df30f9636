import path from 'node:path';
import { addBareOrigin, commitFiles, git, makeRepo } from '../test-support/gitRepo';
import { expect, test } from './support/droverHost';
import { addAgent, openWorkspace, saveProfiles, screenshot, SHELL_AGENT_PROFILE, terminalOf, typeLine } from './support/agents';
import { startFromPane } from './support/agentBridge';
import { openProject, runTask, taskRow } from './support/workState';
import { withSocket } from './support/attention';
import { branchOf, openRepoWithShell, privatePortBlocks, worktreeFolder } from './support/worktrees';

test('the command palette runs a task and cancels it, by keyboard alone', async ({ page, drover }) => {
  const folder = drover.makeFolder('shop');
  const url = await drover.startHost(['--project', folder]);
  const projectId = await withSocket(drover, async (rpc) => (await rpc.call('findProjectByPath', { path: folder })).id);
  const panel = await openProject(page, url, projectId);
  await runTask(drover, folder, 'echo ready', 'warm-up');
  await expect(taskRow(panel, 'warm-up').getByText('Task done')).toBeVisible();

  await page.keyboard.press('Control+K');
  const palette = page.getByRole('dialog', { name: 'Command palette' });
  const search = palette.getByRole('combobox');
  await expect(search).toBeFocused();
  await expect(palette.getByRole('listbox')).toBeVisible();
  await page.keyboard.type('run task');
  await expect(palette.getByRole('option', { name: 'Run task…' })).toHaveAttribute('aria-selected', 'true');
  await screenshot(page, 'palette.png');
  await page.keyboard.press('Enter');
  await expect(palette).toBeHidden();

  const form = page.getByRole('dialog', { name: 'Run task' });
  await expect(form.getByRole('textbox', { name: 'Command' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(form.getByText('Type the command to run.')).toBeVisible();
  await page.keyboard.type('echo soaking; sleep 60');
  await page.keyboard.press('Tab');
  await page.keyboard.type('soak test');
  await page.keyboard.press('Tab');
  await page.keyboard.press('Tab');
  await page.keyboard.type('..');
  await page.keyboard.press('Enter');
  await expect(form.getByRole('alert')).toContainText('Drover did not run it:');
  await expect(form.getByRole('alert')).toContainText('outside the project');
  await expect(form.getByRole('textbox', { name: 'Working folder' })).toBeFocused();
  await page.keyboard.press('Control+A');
  await page.keyboard.press('Backspace');
  await page.keyboard.press('Enter');
  await expect(form).toBeHidden();

  const row = taskRow(panel, 'soak test');
  await expect(row.getByText('Running')).toBeVisible();
  await expect(row).toHaveAttribute('aria-selected', 'true');
  await expect(panel.getByRole('grid', { name: 'Tasks' })).toBeFocused();

  // Cancel the selected task from the palette; a running task asks first, and keeps running on Escape.
  await page.keyboard.press('Control+Shift+P');
  await page.keyboard.type('cancel soak');
  await expect(palette.getByRole('option', { name: 'Cancel soak test' })).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('Enter');
  const confirm = page.getByRole('alertdialog', { name: 'Cancel soak test?' });
  await expect(confirm.getByRole('button', { name: 'Keep running' })).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(confirm.getByRole('button', { name: 'Cancel task' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(row.getByText('Cancelled')).toBeVisible();
});

test('keys typed right after Ctrl+Shift+P in an agent terminal reach the palette, never the agent', async ({ page, drover }) => {
  const folder = drover.makeFolder('shop');
  const url = await drover.startHost(['--project', folder]);
  const projectId = await saveProfiles(drover, folder, [SHELL_AGENT_PROFILE]);
  await openWorkspace(page, url, projectId);
  const pane = await addAgent(page, 'sam', 'Runs the shell', 'POSIX shell');
  await startFromPane(pane);
  const terminal = terminalOf(pane, 'sam');
  await typeLine(page, terminal, 'echo before-palette');
  await expect(terminal).toContainText(/echo before-palette\s*before-palette/);

  // The first opening, typed at once: no pause for the palette to appear.
  await page.keyboard.press('Control+Shift+P');
  await page.keyboard.type('focus sam');
  const palette = page.getByRole('dialog', { name: 'Command palette' });
  await expect(palette.getByRole('combobox')).toHaveValue('focus sam');
  await page.keyboard.press('Escape');
  await expect(palette).toBeHidden();
  // Whatever reached the shell would sit before this line's echo.
  await typeLine(page, terminal, 'echo after-palette');
  await expect(terminal).toContainText(/\$ echo after-palette\s*after-palette/);
});

test('the palette opens again when asked for right after Escape closed it, before its dialog said so', async ({ page, drover }) => {
  const folder = drover.makeFolder('shop');
  const url = await drover.startHost(['--project', folder]);
  const projectId = await withSocket(drover, async (rpc) => (await rpc.call('findProjectByPath', { path: folder })).id);
  await openProject(page, url, projectId);
  const palette = page.getByRole('dialog', { name: 'Command palette' });
  await page.keyboard.press('Control+Shift+P');
  await expect(palette.getByRole('combobox')).toBeFocused();
  // What Escape does (the dialog closes now, its `close` event comes a task later), and the keys to open it again in the same task.
  await page.evaluate(() => {
    document.querySelector<HTMLDialogElement>('dialog[open]')?.close();
    window.dispatchEvent(new KeyboardEvent('keydown', { key: 'P', code: 'KeyP', ctrlKey: true, shiftKey: true, bubbles: true, cancelable: true }));
  });
  await expect(palette.getByRole('combobox')).toBeFocused();
  await page.keyboard.type('run task');
  await expect(palette.getByRole('option', { name: 'Run task…' })).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('Escape');
  await expect(palette).toBeHidden();
});

test('the palette offers what the page offers for an agent: merge its branch, push it, open a pull request, send the comments on its diff', async ({ page, drover }) => {
  const restorePorts = privatePortBlocks(drover);
  try {
    const repo = makeRepo(path.join(drover.root, 'shop'), { 'cart.js': 'export const total = () => 0;\n' });
    const bare = addBareOrigin(repo, path.join(drover.root, 'remote.git'));
    const projectId = await openRepoWithShell(page, drover, repo);
    const pane = await addAgent(page, 'sam', 'Fixes the cart', 'POSIX shell');
    await expect(branchOf(pane, 'sam')).toBeVisible();
    const branch = (await branchOf(pane, 'sam').textContent()) ?? '';
    const worktree = worktreeFolder(repo, 'sam');
    commitFiles(worktree, { 'cart.js': 'export const total = () => 1;\n' }, 'Count the items');
    const agentId = await withSocket(drover, async (rpc) => (await rpc.call('getWorkState', { projectId })).agents.find((agent) => agent.name === 'sam')?.id ?? '');

    const palette = page.getByRole('dialog', { name: 'Command palette' });
    const runCommand = async (search: string, label: string) => {
      await page.keyboard.press('Control+Shift+P');
      await page.keyboard.type(search);
      await expect(palette.getByRole('option', { name: label })).toHaveAttribute('aria-selected', 'true');
      await page.keyboard.press('Enter');
    };

    // A push shows nowhere else: the palette stays open to say where it went.
    await runCommand('push sam', 'Push sam’s branch');
    await expect(palette.getByRole('status')).toHaveText(`Pushed ${branch} to origin.`);
    expect(git(bare, 'rev-parse', `refs/heads/${branch}`)).toBe(git(worktree, 'rev-parse', 'HEAD'));
    await page.keyboard.press('Escape');
    await expect(palette).toBeHidden();

    await runCommand('send comments sam', 'Send the comments on sam’s diff');
    await expect(palette.getByRole('alert')).toContainText("There are no comments on sam's diff to send.");
    await page.keyboard.press('Escape');
    await withSocket(drover, (rpc) =>
      rpc.call('addDiffComment', { agentId, path: 'cart.js', side: 'new', startLine: 1, endLine: 1, quoted: 'export const total = () => 1;', body: 'Count every item, not one.' }),
    );
    await runCommand('send comments sam', 'Send the comments on sam’s diff');
    await expect(palette.getByRole('status')).toHaveText("Sent 1 comment to sam's inbox as one message; it is woken with it when it is ready.");
    await page.keyboard.press('Escape');

    await runCommand('merge sam', 'Merge sam’s branch into main…');
    const merge = page.getByRole('dialog', { name: `Merge ${branch} into main` });
    await expect(merge.getByRole('button', { name: 'Merge into main' })).toBeEnabled();
    await page.keyboard.press('Escape');
    await expect(merge).toBeHidden();

    await runCommand('pull request sam', 'Open a pull request for sam…');
    const pullRequest = page.getByRole('dialog', { name: 'Open a pull request for sam' });
    await expect(pullRequest.getByRole('button', { name: 'Open pull request' })).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(pullRequest).toBeHidden();
  } finally {
    restorePorts();
  }
});
