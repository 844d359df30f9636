import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from './support/droverHost';
import { addAgent, openWorkspace, saveProfiles, SHELL_AGENT_PROFILE, stateBadge, terminalOf, typeLine } from './support/agents';

/**
 * The pane's renderer: the DOM one where WebGL is rasterized on the CPU (Chromium under
 * --disable-gpu, as here), the WebGL addon when asked for; either way the terminal works, and live
 * output (binary frames) reaches it.
 */
test('draws agent terminals with the DOM renderer without a GPU, and with WebGL when asked, typing working in both', async ({ page, drover }) => {
  const folder = drover.makeFolder('render');
  const url = await drover.startHost(['--project', folder]);
  const projectId = await saveProfiles(drover, folder, [SHELL_AGENT_PROFILE]);
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await openWorkspace(page, url, projectId);

  const shell = await addAgent(page, 'shell', 'a POSIX shell', 'POSIX shell');
  await shell.getByRole('button', { name: 'Start' }).click();
  await expect(stateBadge(shell, 'Ready')).toBeVisible();
  const terminal = terminalOf(shell, 'shell');
  await expect(terminal.locator('[data-renderer]')).toHaveAttribute('data-renderer', 'dom');
  await typeLine(page, terminal, 'echo caf\u00e9-$((6*7))');
  await expect(terminal).toContainText('caf\u00e9-42');

  await page.evaluate(() => window.localStorage.setItem('drover.terminalRenderer', 'webgl'));
  await page.reload();
  const again = terminalOf(shell, 'shell');
  await expect(again.locator('[data-renderer]')).toHaveAttribute('data-renderer', 'webgl');
  await expect(again.locator('canvas').first()).toBeVisible();
  // Its text is drawn on a canvas: the keys are seen to arrive by what the shell does with them.
  await typeLine(page, again, 'touch drawn-by-webgl');
  await expect.poll(() => fs.existsSync(path.join(folder, 'drawn-by-webgl'))).toBe(true);
  expect(errors).toEqual([]);
});
