#!/usr/bin/env node
/**
 * `npm run dist` (after `npm run build`): packages the built app with electron-builder
 * (electron-builder.yml: an AppImage and a .deb for this machine's architecture, into release/).
 *
 *   npm run dist                  AppImage and .deb
 *   npm run dist -- dir           only the unpacked app (release/linux-unpacked), for a quick look
 *   npm run dist -- AppImage      one of them
 *
 * What depends on the machine that builds is added here, on top of electron-builder.yml:
 * - better-sqlite3 for Electron's ABI (node_modules keeps Node's build), built once under .native/
 *   by scripts/electron-native.mjs and shipped as resources/native/better_sqlite3.node;
 * - the GitHub repository the AppImage updates from (and the .deb's homepage): GITHUB_REPOSITORY
 *   (set in GitHub Actions), else the `origin` remote;
 * - the .deb's /usr/bin/drover (build/linux/drover), by absolute path.
 * DROVER_ELECTRON_DIST may name an unpacked Electron to package instead of downloading one.
 *
 * Packaging needs network access the first time (Electron's zip, the AppImage and deb tools).
 * The test scripts/dist.test.ts drives `packageLinux` offline with a stand-in Electron.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureElectronSqliteBinding } from './electron-native.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(path.join(ROOT, 'package.json'));
const BUILT_FILES = ['dist/electron/main.js', 'dist/electron/cli.js', 'dist/electron/preload.js', 'dist/renderer/index.html'];
const TARGETS = ['AppImage', 'deb', 'dir'];

/** `owner/repo` of a GitHub URL (https or ssh), or null for anything else. */
export function gitHubRepository(url) {
  const match = /github\.com[:/]([^/\s]+)\/([^/\s]+?)(?:\.git)?\/?$/.exec(url.trim());
  return match ? { owner: match[1], repo: match[2] } : null;
}

/** The repository the AppImage updates from, or null when none is known. */
export function updateRepository(env = process.env) {
  const fromEnv = env.GITHUB_REPOSITORY;
  if (fromEnv) {
    const [owner, repo] = fromEnv.split('/');
    if (owner && repo) return { owner, repo };
  }
  try {
    return gitHubRepository(execFileSync('git', ['-C', ROOT, 'remote', 'get-url', 'origin'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }));
  } catch {
    return null;
  }
}

/** The checks electron-builder would only warn about, so a package never ships without them. */
function checkBuilt() {
  const missing = BUILT_FILES.filter((file) => !existsSync(path.join(ROOT, file)));
  if (missing.length > 0) throw new Error(`Missing ${missing.join(', ')}: run \`npm run build\` first (\`npm run dist\` does both).`);
}

function checkPackagedBinding(outputDir) {
  for (const unpacked of readdirSync(outputDir).filter((name) => /^linux(-.+)?-unpacked$/.test(name))) {
    const binding = path.join(outputDir, unpacked, 'resources', 'native', 'better_sqlite3.node');
    if (!existsSync(binding)) throw new Error(`Packaged app has no ${binding}: the app could not open its databases.`);
  }
}

/**
 * Packages the app for Linux. `targets`: any of AppImage, deb, dir (default: the config's);
 * `sqliteBinding`: the Electron-ABI better_sqlite3.node to ship; `electronDist`: an unpacked
 * Electron to use instead of downloading one; `effectiveOptionComputed`: electron-builder's hook
 * that sees each package's computed options (return true to skip making that package).
 */
export async function packageLinux({
  targets = [],
  arch = process.arch,
  outputDir = path.join(ROOT, 'release'),
  sqliteBinding,
  electronDist = process.env.DROVER_ELECTRON_DIST,
  repository = updateRepository(),
  effectiveOptionComputed,
} = {}) {
  const unknown = targets.filter((target) => !TARGETS.includes(target));
  if (unknown.length > 0) throw new Error(`Unknown target ${unknown.join(', ')}: use ${TARGETS.join(', ')}.`);
  checkBuilt();
  if (!sqliteBinding || !existsSync(sqliteBinding)) throw new Error(`No Electron build of better-sqlite3 at ${sqliteBinding}.`);
  const onlyUnpacked = targets.length > 0 && targets.every((target) => target === 'dir');
  if (!repository && !onlyUnpacked) {
    throw new Error(
      'No GitHub repository known: the AppImage updates from its releases and the .deb names it as its homepage. ' +
        'Set GITHUB_REPOSITORY=owner/repo, or add a GitHub `origin` remote.',
    );
  }

  const { build, Platform, Arch } = require('electron-builder');
  const config = {
    extends: path.join(ROOT, 'electron-builder.yml'),
    directories: { output: outputDir },
    // electron-builder joins `from` onto the project folder, absolute or not.
    extraResources: [{ from: path.relative(ROOT, sqliteBinding), to: 'native/better_sqlite3.node' }],
    deb: { fpm: [`${path.join(ROOT, 'build', 'linux', 'drover')}=/usr/bin/drover`] },
    ...(repository
      ? {
          publish: { provider: 'github', releaseType: 'draft', owner: repository.owner, repo: repository.repo },
          extraMetadata: { homepage: `https://github.com/${repository.owner}/${repository.repo}` },
        }
      : {}),
    ...(electronDist ? { electronDist } : {}),
  };
  const artifacts = await build({
    projectDir: ROOT,
    targets: Platform.LINUX.createTarget(targets.length > 0 ? targets : null, Arch[arch]),
    config,
    publish: 'never',
    ...(effectiveOptionComputed ? { effectiveOptionComputed } : {}),
  });
  checkPackagedBinding(outputDir);
  return artifacts;
}

function isMain() {
  return process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url);
}

if (isMain()) {
  try {
    checkBuilt();
    const artifacts = await packageLinux({ targets: process.argv.slice(2), sqliteBinding: ensureElectronSqliteBinding() });
    console.log(['Packages:', ...artifacts.map((file) => `  ${path.relative(process.cwd(), file) || file}`)].join('\n'));
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(1);
  }
}
