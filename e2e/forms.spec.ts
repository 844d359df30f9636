import { openWorkspace, saveProfiles, screenshot, SHELL_AGENT_PROFILE } from './support/agents';
import { expect, test } from './support/droverHost';

test.describe('issue 35, item 15: forms', () => {
  test('a long PATH in "not on PATH (…)" wraps inside the Add agent dialog', async ({ page, drover }) => {
    const folder = drover.makeFolder('plain');
    // A PATH has no spaces to break at: one of a real machine's length (nvm, cargo, pyenv, snap…).
    const longPath = [process.env.PATH ?? '/usr/bin', ...Array.from({ length: 12 }, (_, i) => `/home/someone/.local/share/toolchains/version-${i}/bin`)].join(':');
    const url = await drover.startHost(['--project', folder], { ...process.env, PATH: longPath });
    const missing = { ...SHELL_AGENT_PROFILE, id: 'missing', name: 'Missing CLI', command: 'no-such-agent-cli' };
    const projectId = await saveProfiles(drover, folder, [SHELL_AGENT_PROFILE, missing]);
    await openWorkspace(page, url, projectId);

    await page.getByRole('button', { name: 'Add agent' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add agent' });
    await dialog.getByLabel('Profile').selectOption({ label: 'Missing CLI (unavailable)' });
    const warning = dialog.getByText(/no-such-agent-cli is not installed or not on PATH/);
    await expect(warning).toBeVisible();
    const [dialogBox, warningBox] = [await dialog.boundingBox(), await warning.boundingBox()];
    expect(warningBox && dialogBox && warningBox.x + warningBox.width <= dialogBox.x + dialogBox.width).toBe(true);
    expect(await dialog.evaluate((element) => element.scrollWidth <= element.clientWidth)).toBe(true);
    await screenshot(page, 'forms-long-path.png');
  });

  test('placeholders read as examples or defaults, never as values typed in', async ({ page, drover }) => {
    const folder = drover.makeFolder('plain');
    const url = await drover.startHost(['--project', folder]);
    await page.goto(url);
    await expect(page.getByLabel('Project folder')).toHaveAttribute('placeholder', /^e\.g\. /);
    const machines = page.getByRole('region', { name: /Other machines/ });
    for (const label of ['Machine name', 'SSH destination', 'Port']) {
      await expect(machines.getByLabel(label)).toHaveAttribute('placeholder', /^(e\.g\. |default )/);
    }
    expect(await machines.getByLabel('Port').evaluate((input) => getComputedStyle(input, '::placeholder').fontStyle)).toBe('italic');
    await screenshot(page, 'forms-placeholders.png');
  });
});
