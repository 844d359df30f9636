import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { startServe, type ServeProcess } from '../test-support/droverProcess';
import { makeTempDir, removeDir } from '../test-support/tempDir';

const VERSION = (JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'package.json'), 'utf8')) as { version: string }).version;

/** `drover serve` with a home folder of its own, so "Install command line tool" writes there. */
test.describe('the Settings page', () => {
  let root: string;
  let home: string;
  let host: ServeProcess;

  test.beforeEach(async () => {
    root = makeTempDir('drover-settings-e2e-');
    home = path.join(root, 'home');
    fs.mkdirSync(home);
    host = await startServe(['--data-dir', path.join(root, 'data')], { ...process.env, HOME: home, PATH: '/usr/local/bin:/usr/bin:/bin' });
  });
  test.afterEach(async () => {
    await host.stop();
    removeDir(root);
  });

  test('shows the data dir and version, and no update setting: only the desktop AppImage updates itself', async ({ page }) => {
    await page.goto(host.url);
    await page.getByRole('link', { name: 'Settings' }).click();
    await expect(page.getByRole('heading', { name: 'Settings', level: 1 })).toBeVisible();
    await expect(page.getByText(path.join(root, 'data'), { exact: true })).toBeVisible();
    await expect(page.getByText(`Drover ${VERSION}`, { exact: true })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Notifications', level: 2 })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Updates' })).toHaveCount(0);
    await expect(page.getByRole('checkbox', { name: 'Check for updates automatically' })).toHaveCount(0);
    await page.screenshot({ path: 'e2e-artifacts/settings.png' });
  });

  test('installs the drover command into ~/.local/bin and says that folder is not on PATH', async ({ page }) => {
    await page.goto(host.url);
    await expect(page.getByRole('heading', { name: 'Projects', level: 1 })).toBeVisible();
    // From anywhere: the palette's command opens the page with its button focused.
    await page.keyboard.press('Control+K');
    await expect(page.getByRole('dialog', { name: 'Command palette' }).getByRole('combobox')).toBeFocused();
    await page.keyboard.type('install command');
    await page.keyboard.press('Enter');
    const install = page.getByRole('button', { name: 'Install command line tool' });
    await expect(install).toBeFocused();
    await page.keyboard.press('Enter');
    const outcome = page.getByRole('status');
    await expect(outcome).toContainText('Installed the drover command at ~/.local/bin/drover.');
    await expect(outcome).toContainText('~/.local/bin is not on your PATH');
    await expect(install).toBeFocused();

    const launcher = path.join(home, '.local', 'bin', 'drover');
    expect(execFileSync(launcher, ['--version'], { encoding: 'utf8' })).toBe(`${VERSION}\n`);

    // A drover the person put there themselves is left alone, and the page says why.
    fs.writeFileSync(launcher, '#!/bin/sh\necho mine\n');
    await page.getByRole('button', { name: 'Install command line tool' }).click();
    await expect(page.getByRole('alert')).toContainText('~/.local/bin/drover already exists and was not written by Drover');
    expect(fs.readFileSync(launcher, 'utf8')).toBe('#!/bin/sh\necho mine\n');
  });
});
