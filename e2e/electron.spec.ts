/**
 * The desktop app itself, through Playwright's Electron driver. Needs the Electron binary (never
 * downloaded here) and a build (`npm run build`); where the binary is missing the test says so
 * and skips. Everything else about the UI is covered through the browser host.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { _electron as electron, expect, test } from '@playwright/test';
import type { ElectronApplication } from '@playwright/test';
import { PRELOAD_BRIDGE_KEY } from '../shared/preloadBridge';

const ROOT = path.resolve(__dirname, '..');
const SKIP_MESSAGE = 'Electron binary not installed on this machine: skipped';

/**
 * The Electron executable, or null. Same lookup as the electron package's index.js (and
 * scripts/start-electron.mjs), without requiring that file: it would try to download the binary.
 */
function findElectronBinary(): string | null {
  const packageDir = path.join(ROOT, 'node_modules', 'electron');
  const pathFile = path.join(packageDir, 'path.txt');
  const relative = fs.existsSync(pathFile) ? fs.readFileSync(pathFile, 'utf8').trim() : '';
  const override = process.env.ELECTRON_OVERRIDE_DIST_PATH;
  const binary = override ? path.join(override, relative || 'electron') : relative && path.join(packageDir, 'dist', relative);
  return binary && fs.existsSync(binary) ? binary : null;
}

/** Builds better-sqlite3 for Electron's ABI if needed; the script prints the binding's path last. */
function electronSqliteBinding(): string {
  const output = execFileSync(process.execPath, [path.join(ROOT, 'scripts', 'electron-native.mjs')], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  return output.trim().split('\n').at(-1) ?? '';
}

async function launchDrover(executablePath: string, dataDir: string, sqliteBinding: string): Promise<ElectronApplication> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) if (value !== undefined) env[key] = value;
  delete env.ELECTRON_RUN_AS_NODE;
  // Chromium refuses to run as root with its sandbox on (CI containers).
  const args = process.getuid?.() === 0 ? ['--no-sandbox', ROOT] : [ROOT];
  return electron.launch({
    executablePath,
    args,
    cwd: ROOT,
    env: { ...env, DROVER_DATA_DIR: dataDir, DROVER_SQLITE_BINDING: sqliteBinding },
  });
}

test('the desktop app starts on a fresh data dir, adds a project and keeps it across a restart', async () => {
  const executablePath = findElectronBinary();
  if (!executablePath) {
    console.log(SKIP_MESSAGE);
    test.skip(true, SKIP_MESSAGE);
    return;
  }
  expect(fs.existsSync(path.join(ROOT, 'dist', 'electron', 'main.js')), 'run `npm run build` first').toBe(true);

  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'drover-electron-e2e-'));
  const dataDir = path.join(root, 'data');
  const folder = path.join(root, 'desktop-app');
  fs.mkdirSync(folder);
  const sqliteBinding = electronSqliteBinding();

  let app = await launchDrover(executablePath, dataDir, sqliteBinding);
  try {
    expect(await app.evaluate(({ app: electronApp }) => electronApp.getPath('userData'))).toBe(dataDir);
    let page = await app.firstWindow();
    await expect(page).toHaveTitle(/Drover/);
    await expect(page.getByRole('heading', { name: 'Projects', level: 1 })).toBeVisible();

    // The page talks through the preload bridge and has no Node in it.
    const surface = await page.evaluate(
      (key) => ({ bridge: typeof (window as unknown as Record<string, unknown>)[key], require: typeof (globalThis as Record<string, unknown>).require, process: typeof (globalThis as Record<string, unknown>).process }),
      PRELOAD_BRIDGE_KEY,
    );
    expect(surface).toEqual({ bridge: 'object', require: 'undefined', process: 'undefined' });

    await page.getByLabel('Project folder').fill(folder);
    await page.getByRole('button', { name: 'Add project' }).click();
    await expect(page.getByRole('listitem').filter({ hasText: folder })).toBeVisible();

    await app.close();
    app = await launchDrover(executablePath, dataDir, sqliteBinding);
    page = await app.firstWindow();
    await expect(page.getByRole('listitem').filter({ hasText: folder })).toBeVisible();
  } finally {
    await app.close();
    fs.rmSync(root, { recursive: true, force: true });
  }
});
