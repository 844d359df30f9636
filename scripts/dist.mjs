#!/usr/bin/env node
/**
 * `npm run dist` (after `npm run build`): packages the built app with electron-builder
 * (electron-builder.yml: AppImage and deb for Linux x64, into release/).
 *
 * better-sqlite3 is never rebuilt inside node_modules (that copy stays on Node's ABI). Instead the
 * Electron-ABI binding is built once under .native/ (scripts/electron-native.mjs) and shipped as
 * resources/native/better_sqlite3.node; electron-builder.yml finds it through DROVER_ELECTRON_VERSION.
 *
 * Arguments are passed to electron-builder, e.g. `npm run dist -- --linux dir` for an unpacked
 * build only. Packaging needs network access the first time (Electron's zip, AppImage/deb tools).
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { electronVersion, ensureElectronSqliteBinding } from './electron-native.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(path.join(ROOT, 'package.json'));
const BUILT_FILES = ['dist/electron/main.js', 'dist/electron/preload.js', 'dist/renderer/index.html'];

function fail(message) {
  console.error(message);
  process.exit(1);
}

function checkBuilt() {
  const missing = BUILT_FILES.filter((file) => !existsSync(path.join(ROOT, file)));
  if (missing.length > 0) fail(`Missing ${missing.join(', ')}: run \`npm run build\` first (\`npm run dist\` does both).`);
}

function runElectronBuilder(args, env) {
  const cli = path.join(path.dirname(require.resolve('electron-builder/package.json')), 'cli.js');
  const result = spawnSync(process.execPath, [cli, '--config', 'electron-builder.yml', '--publish', 'never', ...args], {
    cwd: ROOT,
    stdio: 'inherit',
    env,
  });
  if (result.error) fail(`Could not run electron-builder: ${result.error.message}`);
  if (result.status !== 0) fail(`electron-builder failed (exit ${result.status ?? result.signal}).`);
}

/** electron-builder only warns when an extraResources source is missing: check it ourselves. */
function checkPackagedBinding() {
  const unpacked = path.join(ROOT, 'release', 'linux-unpacked');
  if (!existsSync(unpacked)) return;
  const binding = path.join(unpacked, 'resources', 'native', 'better_sqlite3.node');
  if (!existsSync(binding)) fail(`Packaged app has no ${path.relative(ROOT, binding)}: the app could not open its databases.`);
}

function main() {
  checkBuilt();
  try {
    ensureElectronSqliteBinding();
  } catch (error) {
    fail(error instanceof Error ? error.message : String(error));
  }
  const env = { ...process.env, DROVER_ELECTRON_VERSION: electronVersion() };
  runElectronBuilder(process.argv.slice(2), env);
  checkPackagedBinding();
  console.log(`Packages are in ${path.relative(process.cwd(), path.join(ROOT, 'release')) || '.'}/`);
}

main();
