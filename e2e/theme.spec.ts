import type { Locator, Page } from '@playwright/test';
import { withSocket } from './support/attention';
import { screenshot, startedShellAgent, typeLine } from './support/agents';
import { expect, test } from './support/droverHost';
import { holdReplies } from './support/heldFrames';

type Shade = 'dark' | 'light';

/** Whether a computed colour (`rgb(r, g, b)`) reads as light or dark: its relative luminance (WCAG) above or below the middle. */
function shadeOf(color: string): Shade {
  const [r, g, b] = (color.match(/\d+(\.\d+)?/g) ?? []).slice(0, 3).map((part) => {
    const channel = Number(part) / 255;
    return channel <= 0.03928 ? channel / 12.92 : ((channel + 0.055) / 1.055) ** 2.4;
  });
  if (r === undefined || g === undefined || b === undefined) throw new Error(`not a colour: ${color}`);
  return 0.2126 * r + 0.7152 * g + 0.0722 * b > 0.4 ? 'light' : 'dark';
}

/** The page's background: the root element's, which styles.css paints from the theme. */
async function pageShade(page: Page): Promise<Shade> {
  return shadeOf(await page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor));
}

/** The background xterm paints from its theme (its scrollable element's), whichever renderer draws the cells. */
async function terminalShade(terminal: Locator): Promise<Shade> {
  return shadeOf(await terminal.locator('.xterm-scrollable-element').evaluate((element) => getComputedStyle(element).backgroundColor));
}

async function expectShades(page: Page, terminal: Locator, shade: Shade): Promise<void> {
  await expect.poll(() => pageShade(page)).toBe(shade);
  await expect.poll(() => terminalShade(terminal)).toBe(shade);
}

test('Dark, Light and System: the page and a live terminal follow the setting at once, a reload shows it before the host answers, System follows the system', async ({ page, drover }) => {
  test.setTimeout(90_000);
  const { url, terminal, projectId } = await startedShellAgent(page, drover, 'alpha', 'backend');
  await typeLine(page, terminal, 'echo painted-before');
  await expect(terminal).toContainText('painted-before');
  await expectShades(page, terminal, 'dark');

  // Another window (here, a script) changes the setting: this page and its running terminal switch, without reattaching it.
  await terminal.locator('.xterm').evaluate((element) => element.setAttribute('data-seen-before', 'yes'));
  await withSocket(drover, (rpc) => rpc.call('updateAppSettings', { settings: { theme: 'light' } }));
  await expectShades(page, terminal, 'light');
  await expect(terminal.locator('.xterm[data-seen-before="yes"]')).toHaveCount(1);
  await expect(terminal).toContainText('painted-before');
  await screenshot(page, 'theme-light-workspace.png');

  // A reload paints light before the host's settings arrive (no flash of dark).
  const held = await holdReplies(page, 'getAppSettings');
  await page.reload();
  await expect(terminal).toContainText('painted-before');
  await expectShades(page, terminal, 'light');
  held.release();

  // The Settings page: Dark, then System, which follows the system's colour scheme as it changes.
  await page.getByRole('link', { name: 'Settings' }).click();
  const themes = page.getByRole('group', { name: 'Theme' });
  await expect(themes.getByRole('radio', { name: 'Light' })).toBeChecked();
  await themes.getByRole('radio', { name: 'Dark' }).check();
  await expect.poll(() => pageShade(page)).toBe('dark');
  await page.emulateMedia({ colorScheme: 'light' });
  await themes.getByRole('radio', { name: 'System' }).check();
  await expect.poll(() => pageShade(page)).toBe('light');
  await page.emulateMedia({ colorScheme: 'dark' });
  await expect.poll(() => pageShade(page)).toBe('dark');
  await page.emulateMedia({ colorScheme: 'light' });
  await expect.poll(() => pageShade(page)).toBe('light');
  await screenshot(page, 'theme-light-settings.png');

  await page.goto(`${url}#/project/${projectId}`);
  await expectShades(page, terminal, 'light');
  await page.emulateMedia({ colorScheme: 'dark' });
  await expectShades(page, terminal, 'dark');
});
