import { expect, test } from './support/droverHost';
import { addAgent, openWorkspace, saveProfiles, screenshot, SHELL_AGENT_PROFILE, terminalOf, typeLine } from './support/agents';
import { startFromPane } from './support/agentBridge';
import { openProject, runTask, taskRow } from './support/workState';
import { withSocket } from './support/attention';

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
