/**
 * The desktop app itself, through Playwright's Electron driver: the checkout run with the Electron
 * binary of node_modules, or a package given in DROVER_E2E_APP (the release workflow passes the
 * AppImage, then the installed .deb's /opt/Drover/drover-desktop). Needs that binary (never
 * downloaded here) and a build (`npm run build`); where there is none the tests say so and skip.
 * Everything else about the UI is covered through the browser host.
 */
import { execFile, execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { _electron as electron, expect, test } from '@playwright/test';
import type { ElectronApplication } from '@playwright/test';
import { isRecordedHostAlive, readHostRecord } from '../electron/host/hostRecord';
import { PRELOAD_BRIDGE_KEY } from '../shared/preloadBridge';
import { stopHostOf } from '../test-support/droverProcess';

const ROOT = path.resolve(__dirname, '..');
const SKIP_MESSAGE = 'Electron binary not installed on this machine (and no DROVER_E2E_APP): skipped';
const VERSION = (JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;

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

/** How to start the app under test: an executable, the arguments before the app's own, extra env. */
interface DesktopApp {
  executablePath: string;
  args: string[];
  env: Record<string, string>;
}

function desktopApp(): DesktopApp | null {
  // Chromium refuses to run as root with its sandbox on (CI containers).
  const sandbox = process.getuid?.() === 0 ? ['--no-sandbox'] : [];
  const packaged = process.env.DROVER_E2E_APP;
  if (packaged) {
    if (!fs.existsSync(packaged)) throw new Error(`DROVER_E2E_APP names no file: ${packaged}`);
    return { executablePath: packaged, args: sandbox, env: {} };
  }
  const binary = findElectronBinary();
  if (!binary) return null;
  expect(fs.existsSync(path.join(ROOT, 'dist', 'electron', 'main.js')), 'run `npm run build` first').toBe(true);
  return { executablePath: binary, args: [...sandbox, ROOT], env: { DROVER_SQLITE_BINDING: electronSqliteBinding() } };
}

/** A fresh data dir and home folder per test, removed afterwards. */
interface World {
  root: string;
  dataDir: string;
  home: string;
  env: Record<string, string>;
}

function makeWorld(app: DesktopApp): World {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'drover-electron-e2e-')));
  const dataDir = path.join(root, 'data');
  const home = path.join(root, 'home');
  fs.mkdirSync(home);
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) if (value !== undefined) env[key] = value;
  delete env.ELECTRON_RUN_AS_NODE;
  return { root, dataDir, home, env: { ...env, ...app.env, DROVER_DATA_DIR: dataDir, HOME: home } };
}

function launchDrover(app: DesktopApp, world: World): Promise<ElectronApplication> {
  return electron.launch({ executablePath: app.executablePath, args: app.args, cwd: world.root, env: world.env });
}

/** Closing the window leaves the Drover host running: each test stops it, then removes its world. */
async function removeWorld(world: World): Promise<void> {
  await stopHostOf(world.dataDir);
  fs.rmSync(world.root, { recursive: true, force: true });
}

function usableApp(): DesktopApp {
  const app = desktopApp();
  if (!app) {
    console.log(SKIP_MESSAGE);
    test.skip(true, SKIP_MESSAGE);
    throw new Error(SKIP_MESSAGE);
  }
  return app;
}

test('the desktop app starts on a fresh data dir, adds a project and keeps it across a restart', async () => {
  const app = usableApp();
  const world = makeWorld(app);
  const folder = path.join(world.root, 'desktop-app');
  fs.mkdirSync(folder);

  let drover = await launchDrover(app, world);
  try {
    expect(await drover.evaluate(({ app: electronApp }) => electronApp.getPath('userData'))).toBe(world.dataDir);
    let page = await drover.firstWindow();
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
    await expect(page.getByRole('heading', { name: 'desktop-app', level: 1 })).toBeVisible();

    // Closing the window stops nothing: the host it started runs on, and the next window attaches to it.
    const host = readHostRecord(world.dataDir);
    await drover.close();
    expect(host && isRecordedHostAlive(host)).toBe(true);
    drover = await launchDrover(app, world);
    page = await drover.firstWindow();
    await expect(page.getByRole('listitem').filter({ hasText: folder })).toBeVisible();
    expect(readHostRecord(world.dataDir)?.pid).toBe(host?.pid);
  } finally {
    await drover.close();
    await removeWorld(world);
  }
});

test('Install command line tool gives a drover that runs the CLI with the app’s own runtime', async () => {
  const app = usableApp();
  const world = makeWorld(app);
  const drover = await launchDrover(app, world);
  try {
    const page = await drover.firstWindow();
    await page.getByRole('link', { name: 'Settings' }).click();
    await page.getByRole('button', { name: 'Install command line tool' }).click();
    const outcome = page.getByRole('status');
    await expect(outcome).toContainText('drover command at');
    // The AppImage (and a checkout) write ~/.local/bin/drover; the .deb installed /usr/bin/drover.
    const command = (await outcome.textContent())?.includes('/usr/bin/drover') ? '/usr/bin/drover' : path.join(world.home, '.local', 'bin', 'drover');

    const status = await new Promise<{ stdout: string; stderr: string }>((resolve, reject) => {
      execFile(command, ['--data-dir', world.dataDir, 'status', '--json'], { env: world.env, timeout: 30_000 }, (error, stdout, stderr) => (error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve({ stdout, stderr })));
    });
    expect(JSON.parse(status.stdout)).toMatchObject({ version: VERSION, dataDir: world.dataDir });
  } finally {
    await drover.close();
    await removeWorld(world);
  }
});

test('a second launch with --project opens that project in the running window, and quits', async () => {
  const app = usableApp();
  const world = makeWorld(app);
  const folder = path.join(world.root, 'handed-over');
  fs.mkdirSync(folder);
  const drover = await launchDrover(app, world);
  try {
    const page = await drover.firstWindow();
    await expect(page.getByRole('heading', { name: 'Projects', level: 1 })).toBeVisible();

    const second = spawn(app.executablePath, [...app.args, '--project', folder], { cwd: world.root, env: world.env, stdio: 'ignore' });
    const exitCode = await new Promise<number | null>((resolve) => second.once('exit', resolve));
    expect(exitCode).toBe(0);

    await expect(page.getByRole('heading', { name: 'handed-over', level: 1 })).toBeVisible();
  } finally {
    await drover.close();
    await removeWorld(world);
  }
});
