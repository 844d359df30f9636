#!/usr/bin/env node
/**
 * `npm start` (after `npm run build`): runs the built app in Electron.
 *
 * Checks that the Electron binary is installed (this never downloads it), makes sure better-sqlite3
 * is built for Electron's ABI (scripts/electron-native.mjs), then runs `electron .` with
 * DROVER_SQLITE_BINDING pointing at that build. Extra arguments are passed to the app.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureElectronSqliteBinding } from './electron-native.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(path.join(ROOT, 'package.json'));

/**
 * The Electron executable, or null when it is not installed. Same lookup as the `electron`
 * package's index.js, except that requiring that file would try to download a missing binary.
 */
function findElectronBinary() {
  let packageDir;
  try {
    packageDir = path.dirname(require.resolve('electron/package.json'));
  } catch {
    return null;
  }
  const pathFile = path.join(packageDir, 'path.txt');
  const relative = existsSync(pathFile) ? readFileSync(pathFile, 'utf8').trim() : '';
  const override = process.env.ELECTRON_OVERRIDE_DIST_PATH;
  const binary = override
    ? path.join(override, relative || 'electron')
    : relative && path.join(packageDir, 'dist', relative);
  return binary && existsSync(binary) ? binary : null;
}

function fail(message) {
  console.error(message);
  process.exit(1);
}

function main() {
  const electron = findElectronBinary();
  if (!electron) {
    fail(
      'Electron binary not installed: run `npm install` without ELECTRON_SKIP_BINARY_DOWNLOAD ' +
        '(or `node node_modules/electron/install.js`) on a machine that can download it, ' +
        'or point ELECTRON_OVERRIDE_DIST_PATH at an unpacked Electron. ' +
        'Without Electron, `npm run serve` runs the same app in a browser.',
    );
  }
  if (!existsSync(path.join(ROOT, 'dist', 'electron', 'main.js'))) {
    fail('dist/electron/main.js is missing: run `npm run build` first (`npm start` does both).');
  }

  let binding;
  try {
    binding = ensureElectronSqliteBinding();
  } catch (error) {
    fail(error instanceof Error ? error.message : String(error));
  }

  const env = { ...process.env, DROVER_SQLITE_BINDING: binding };
  delete env.ELECTRON_RUN_AS_NODE; // would make Electron behave as plain Node
  const child = spawn(electron, ['.', ...process.argv.slice(2)], { cwd: ROOT, stdio: 'inherit', env });
  for (const signal of ['SIGINT', 'SIGTERM']) {
    process.on(signal, () => child.kill(signal));
  }
  child.on('error', (error) => fail(`Could not start Electron: ${error.message}`));
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}

main();
