/**
 * `npm run dist`, offline: no Electron binary and none of electron-builder's AppImage/deb tools
 * can be downloaded here, so scripts/dist.mjs packages the real build with a stand-in Electron
 * (Node, which refuses to run unless asked to be Node, as Electron's ELECTRON_RUN_AS_NODE does)
 * and stops where the AppImage and the .deb would be written, keeping what electron-builder
 * computed for them. The unpacked app, the desktop entries, the .deb's contents, the update
 * settings and both `drover` launchers are checked against that; the launchers run the packaged
 * CLI, the AppImage's through electron-builder's own AppRun.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliRuntime } from '../electron/cli/cliRuntime';
import { installCommandLineTool } from '../electron/core/commandLineTool/commandLineTool';
import { commandLineToolSource, detectDistribution } from '../electron/desktop/distribution';
import { startHost, type DroverHost } from '../electron/host/host';
import { REPO_ROOT } from '../test-support/buildOnce';
import { makeTempDir, removeDir } from '../test-support/tempDir';

const requireFromRepo = createRequire(path.join(REPO_ROOT, 'package.json'));
const asar = requireFromRepo('@electron/asar') as { listPackage(archive: string, options: object): string[]; extractAll(archive: string, dest: string): void };
const { generateAppRunScript } = requireFromRepo('app-builder-lib/out/targets/appimage/appImageUtil.js') as {
  generateAppRunScript(config: { ExecutableName: string; DesktopFileName: string; ProductFilename: string; ProductName: string; ResourceName: string }): string;
};
const packageJson = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string; desktopName: string; dependencies: Record<string, string> };

interface DistModule {
  packageLinux(options: {
    targets: string[];
    outputDir: string;
    sqliteBinding: string;
    electronDist: string;
    repository: { owner: string; repo: string };
    effectiveOptionComputed(options: unknown): Promise<boolean>;
  }): Promise<string[]>;
}

/** electron-builder's hook sees the AppImage's desktop entry, and the .deb's fpm arguments and desktop file. */
interface Computed {
  appImage?: { desktop: string; desktopFileName: string };
  deb?: { args: string[]; desktop: string };
}

function desktopEntry(text: string): Record<string, string> {
  const entry: Record<string, string> = {};
  for (const line of text.split('\n')) {
    const at = line.indexOf('=');
    if (at > 0) entry[line.slice(0, at)] = line.slice(at + 1);
  }
  return entry;
}

function run(file: string, args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(file, args, { env, timeout: 30_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr });
    });
  });
}

function writeScript(file: string, text: string): string {
  fs.writeFileSync(file, text, { mode: 0o755 });
  return file;
}

describe('the packaged app (npm run dist, with a stand-in Electron)', () => {
  let dir: string;
  let unpacked: string;
  const computed: Computed = {};

  beforeAll(async () => {
    dir = makeTempDir('drover-pack-');
    const electronDist = path.join(dir, 'electron-dist');
    fs.mkdirSync(electronDist);
    // Node sits beside the stand-in, so its process.execPath is in the app's folder, as Electron's is.
    try {
      fs.linkSync(process.execPath, path.join(electronDist, 'node'));
    } catch {
      fs.copyFileSync(process.execPath, path.join(electronDist, 'node'));
    }
    writeScript(
      path.join(electronDist, 'electron'),
      `#!/bin/sh\n[ "$ELECTRON_RUN_AS_NODE" = 1 ] || { echo 'stand-in Electron: no window here, only ELECTRON_RUN_AS_NODE=1' >&2; exit 3; }\nexec "$(dirname "$0")/node" "$@"\n`,
    );
    // Node's own build stands in for the Electron-ABI one: nothing loads it in these checks.
    const sqliteBinding = path.join(dir, 'better_sqlite3.node');
    fs.copyFileSync(path.join(REPO_ROOT, 'node_modules', 'better-sqlite3', 'build', 'Release', 'better_sqlite3.node'), sqliteBinding);

    const dist = (await import(pathToFileURL(path.join(REPO_ROOT, 'scripts', 'dist.mjs')).href)) as DistModule;
    await dist.packageLinux({
      targets: ['AppImage', 'deb'],
      outputDir: path.join(dir, 'release'),
      sqliteBinding,
      electronDist,
      repository: { owner: 'example', repo: 'drover' },
      effectiveOptionComputed: async (options) => {
        if (Array.isArray(options)) {
          const [args, desktopFile] = options as [string[], string];
          computed.deb = { args, desktop: fs.readFileSync(desktopFile, 'utf8') };
        } else {
          computed.appImage = options as Computed['appImage'];
        }
        return true;
      },
    });
    unpacked = path.join(dir, 'release', 'linux-unpacked');
  }, 300_000);
  afterAll(() => removeDir(dir));

  it('ships the built app, its production dependencies and the Electron build of sqlite, and no dev tools', () => {
    expect(fs.readdirSync(unpacked)).toContain('drover-desktop');
    const files = new Set(asar.listPackage(path.join(unpacked, 'resources', 'app.asar'), {}).map((file) => file.replace(/^\//, '')));
    for (const file of ['package.json', 'dist/electron/main.js', 'dist/electron/preload.js', 'dist/electron/cli.js', 'dist/renderer/index.html']) expect(files).toContain(file);
    for (const dependency of Object.keys(packageJson.dependencies)) expect(files, dependency).toContain(`node_modules/${dependency}/package.json`);
    for (const devTool of ['electron', 'electron-builder', 'vitest', 'typescript', 'react']) expect(files).not.toContain(`node_modules/${devTool}/package.json`);
    expect([...files].some((file) => file.endsWith('.map'))).toBe(false);
    // Where the app (main.ts) and `drover serve` on the app's runtime look for it.
    const binding = path.join(unpacked, 'resources', 'native', 'better_sqlite3.node');
    expect(fs.existsSync(binding)).toBe(true);
    const cliDir = path.join(unpacked, 'resources', 'app.asar', 'dist', 'electron');
    expect(cliRuntime({ execPath: path.join(unpacked, 'drover-desktop'), cliDir, versions: { ...process.versions, electron: '45.5.0' }, env: {} }).sqliteNativeBinding).toBe(binding);
  });

  it('writes the update settings: the AppImage updates from the GitHub releases, and knows the .deb', () => {
    const updateConfig = fs.readFileSync(path.join(unpacked, 'resources', 'app-update.yml'), 'utf8');
    expect(updateConfig).toMatch(/^provider: github$/m);
    expect(updateConfig).toMatch(/^owner: example$/m);
    expect(updateConfig).toMatch(/^repo: drover$/m);
    expect(fs.readFileSync(path.join(unpacked, 'resources', 'package-type'), 'utf8')).toBe('deb');

    const facts = { isPackaged: true, resourcesPath: path.join(unpacked, 'resources') };
    expect(detectDistribution({ ...facts, env: { APPIMAGE: '/home/ada/Apps/Drover.AppImage' } })).toEqual({ kind: 'appimage', appImage: '/home/ada/Apps/Drover.AppImage' });
    expect(detectDistribution({ ...facts, env: {} })).toEqual({ kind: 'deb' });
    expect(detectDistribution({ ...facts, isPackaged: false, env: {} })).toEqual({ kind: 'unpacked' });
  });

  it('gives both packages a desktop entry windows are grouped under', () => {
    const windowClass = packageJson.desktopName.replace(/\.desktop$/, '');
    const appImage = computed.appImage;
    if (!appImage) throw new Error('no AppImage was computed');
    expect(appImage.desktopFileName).toBe(packageJson.desktopName);
    const deb = computed.deb;
    if (!deb) throw new Error('no .deb was computed');
    for (const entry of [desktopEntry(appImage.desktop), desktopEntry(deb.desktop)]) {
      expect(entry).toMatchObject({ Name: 'Drover', Type: 'Application', Icon: 'drover-desktop', StartupWMClass: windowClass, Categories: 'Development;' });
    }
    expect(desktopEntry(appImage.desktop).Exec).toMatch(/^AppRun .*%U$/);
    expect(desktopEntry(deb.desktop).Exec).toBe('/opt/Drover/drover-desktop %U');
  });

  it('puts the app in /opt, drover in /usr/bin, the entry in applications and an icon at every size into the .deb', () => {
    const args = computed.deb?.args ?? [];
    expect(args).toContain(`${unpacked}/=/opt/Drover`);
    expect(args).toContain(`${path.join(REPO_ROOT, 'build', 'linux', 'drover')}=/usr/bin/drover`);
    expect(args.some((arg) => arg.endsWith(`=/usr/share/applications/${packageJson.desktopName}`))).toBe(true);
    const sizes = fs.readdirSync(path.join(REPO_ROOT, 'build', 'icons')).map((file) => file.replace(/\.png$/, ''));
    expect(sizes.length).toBeGreaterThanOrEqual(10);
    for (const size of sizes) expect(args).toContain(`${path.join(REPO_ROOT, 'build', 'icons', `${size}.png`)}=/usr/share/icons/hicolor/${size}/apps/drover-desktop.png`);
    expect(args).toEqual(expect.arrayContaining(['--url', 'https://github.com/example/drover']));
  });

  describe('the drover launchers, run against the packaged CLI', () => {
    /** What the AppImage runtime mounts: the unpacked app with AppRun, the archive read as a folder (as Electron reads it). */
    let appDir: string;
    let home: string;
    let host: DroverHost;
    const dataDir = () => path.join(dir, 'data dir');
    const systemPath = process.env.PATH ?? '/usr/bin:/bin';

    beforeAll(async () => {
      appDir = path.join(dir, 'mount');
      fs.cpSync(unpacked, appDir, { recursive: true });
      fs.rmSync(path.join(appDir, 'resources', 'app.asar'));
      asar.extractAll(path.join(unpacked, 'resources', 'app.asar'), path.join(appDir, 'resources', 'app.asar'));
      writeScript(
        path.join(appDir, 'AppRun'),
        generateAppRunScript({ ExecutableName: 'drover-desktop', DesktopFileName: 'drover.desktop', ProductFilename: 'Drover', ProductName: 'Drover', ResourceName: 'appimagekit-drover-desktop' }),
      );
      home = path.join(dir, 'home');
      fs.mkdirSync(home);
      host = await startHost({ dataDir: dataDir(), version: 'packaging-test' });
    });
    afterAll(async () => {
      await host.close();
    });

    /** Folders whose `unshare` says whether user namespaces work: AppRun adds --no-sandbox when they do not. */
    function unshareThat(works: boolean): string {
      const bin = path.join(dir, works ? 'userns-on' : 'userns-off');
      fs.mkdirSync(bin, { recursive: true });
      writeScript(path.join(bin, 'unshare'), `#!/bin/sh\nexit ${works ? 0 : 1}\n`);
      return bin;
    }

    it.each([true, false])('the AppImage launcher runs the CLI inside the AppImage (user namespaces work: %s)', async (userNamespaces) => {
      // The AppImage runtime mounts the image, sets APPDIR and APPIMAGE, and runs AppRun.
      const appImage = writeScript(path.join(dir, 'Drover-test.AppImage'), `#!/bin/sh\nAPPDIR='${appDir}' APPIMAGE="$0" exec '${appDir}/AppRun' "$@"\n`);
      const source = commandLineToolSource({ kind: 'appimage', appImage }, { execPath: path.join(appDir, 'drover-desktop'), cliPath: path.join(appDir, 'resources', 'app.asar', 'dist', 'electron', 'cli.js') });
      const env = { HOME: home, PATH: `${unshareThat(userNamespaces)}:${systemPath}` };
      const installed = installCommandLineTool(source, env, dataDir());
      expect(installed.path).toBe(path.join(home, '.local', 'bin', 'drover'));

      const version = await run(installed.path, ['--version'], env);
      expect(version.stderr).toBe('');
      expect(version).toMatchObject({ code: 0, stdout: `${packageJson.version}\n` });
      // Arguments arrive as they were given (a data dir with a space in it).
      const status = await run(installed.path, ['--data-dir', dataDir(), 'status', '--json'], env);
      expect(status.stderr).toBe('');
      expect(JSON.parse(status.stdout)).toMatchObject({ version: 'packaging-test', dataDir: dataDir() });
    });

    it("the .deb's /usr/bin/drover runs the CLI of the app in /opt/Drover", async () => {
      const shipped = path.join(REPO_ROOT, 'build', 'linux', 'drover');
      expect(fs.statSync(shipped).mode & 0o111).toBe(0o111);
      const text = fs.readFileSync(shipped, 'utf8');
      expect(text).toContain('exec /opt/Drover/drover-desktop /opt/Drover/resources/app.asar/dist/electron/cli.js "$@"');
      const relocated = writeScript(path.join(dir, 'usr-bin-drover'), text.replaceAll('/opt/Drover/', `'${appDir}'/`));
      const env = { HOME: home, PATH: systemPath };

      expect(await run(relocated, ['--version'], env)).toMatchObject({ code: 0, stdout: `${packageJson.version}\n` });
      const status = await run(relocated, ['--data-dir', dataDir(), 'status', '--json'], env);
      expect(JSON.parse(status.stdout)).toMatchObject({ dataDir: dataDir() });
    });
  });
});
