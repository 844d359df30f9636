#!/usr/bin/env node
/**
 * Builds better-sqlite3 for Electron's ABI, without touching node_modules.
 *
 * node_modules/better-sqlite3 stays compiled for Node (unit tests, `drover serve`, the CLI). The
 * Electron app loads its own copy of the native binding from
 *   .native/electron-<electronVersion>/better_sqlite3.node
 * (main.ts passes it to the host as `sqliteNativeBinding`; scripts/dist.mjs ships it as
 * resources/native/better_sqlite3.node). It is built once per Electron version: the package is
 * copied to a temp dir and built there, with a prebuilt binary when one can be downloaded
 * (prebuild-install), else from source (node-gyp against Electron's headers).
 *
 * Usage: node scripts/electron-native.mjs [--force]
 * Prints the path of the binding on its last line. node-pty is N-API, so it needs nothing.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(path.join(ROOT, 'package.json'));
const ELECTRON_HEADERS_URL = 'https://electronjs.org/headers';

/** The Electron version the app is built with (from its package, which holds no binary here). */
function electronVersion() {
  return JSON.parse(readFileSync(require.resolve('electron/package.json'), 'utf8')).version;
}

/** Where the Electron-ABI binding lives for a given Electron version. */
function electronSqliteBindingPath(version = electronVersion()) {
  return path.join(ROOT, '.native', `electron-${version}`, 'better_sqlite3.node');
}

/** Runs a Node script; returns null on success, else a one-line reason. */
function runNodeScript(label, script, args, cwd) {
  const result = spawnSync(process.execPath, [script, ...args], { cwd, stdio: 'inherit', env: process.env });
  if (result.error) return `${label}: ${result.error.message}`;
  return result.status === 0 ? null : `${label} exited with ${result.status ?? result.signal}`;
}

/**
 * Builds better-sqlite3 in a throwaway copy and returns the built .node file's path inside it.
 * `runtime`/`target` say which ABI; `gypArgs` are extra node-gyp flags (e.g. `--dist-url=...`).
 */
function buildBetterSqlite3({ runtime, target, workDir, gypArgs = [], tryPrebuilt = true }) {
  const source = path.dirname(require.resolve('better-sqlite3/package.json'));
  const copy = path.join(workDir, 'better-sqlite3');
  cpSync(source, copy, {
    recursive: true,
    filter: (file) => path.relative(source, file).split(path.sep)[0] !== 'build',
  });
  const built = path.join(copy, 'build', 'Release', 'better_sqlite3.node');
  const failures = [];

  if (tryPrebuilt) {
    const prebuildInstall = require.resolve('prebuild-install/bin.js');
    const failure = runNodeScript('prebuild-install', prebuildInstall, [`--runtime=${runtime}`, `--target=${target}`, `--arch=${process.arch}`, `--platform=${process.platform}`], copy);
    if (!failure && existsSync(built)) return built;
    failures.push(`prebuilt binary: ${failure ?? 'nothing installed'}`);
  }

  const nodeGyp = require.resolve('node-gyp/bin/node-gyp.js');
  const failure = runNodeScript('node-gyp', nodeGyp, ['rebuild', '--release', `--runtime=${runtime}`, `--target=${target}`, `--arch=${process.arch}`, '--jobs=max', ...gypArgs], copy);
  if (!failure && existsSync(built)) return built;
  failures.push(`build from source: ${failure ?? 'no better_sqlite3.node produced'}`);
  throw new Error(
    `Could not build better-sqlite3 for ${runtime} ${target} (${failures.join('; ')}). ` +
      'This needs network access (a prebuilt binary, or Electron headers) and, to build from source, a C++ toolchain with python3 and make.',
  );
}

/** Returns the Electron-ABI binding's path, building it first if it is missing (or `force`). */
export function ensureElectronSqliteBinding({ force = false } = {}) {
  const version = electronVersion();
  const target = electronSqliteBindingPath(version);
  if (existsSync(target) && !force) return target;

  console.log(`Building better-sqlite3 for Electron ${version} (once per Electron version)...`);
  const workDir = mkdtempSync(path.join(os.tmpdir(), 'drover-electron-native-'));
  try {
    const built = buildBetterSqlite3({
      runtime: 'electron',
      target: version,
      workDir,
      gypArgs: [`--dist-url=${ELECTRON_HEADERS_URL}`],
    });
    mkdirSync(path.dirname(target), { recursive: true });
    // Copy next to the target, then rename: a half-written file never looks like a finished one.
    const partial = `${target}.partial`;
    copyFileSync(built, partial);
    renameSync(partial, target);
  } finally {
    rmSync(workDir, { recursive: true, force: true });
  }
  return target;
}

function isMain() {
  return process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url);
}

if (isMain()) {
  try {
    const binding = ensureElectronSqliteBinding({ force: process.argv.includes('--force') });
    console.log(binding);
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(1);
  }
}
