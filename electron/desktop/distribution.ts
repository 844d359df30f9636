import fs from 'node:fs';
import path from 'node:path';
import type { CommandLineToolSource } from '../core/commandLineTool/commandLineTool';

/**
 * How this copy of the desktop app was installed, which decides who updates it and where its
 * `drover` command comes from:
 * - `appimage`: the AppImage updates itself; the launcher runs the AppImage file (its mount point
 *   changes every run);
 * - `deb`: the package manager updates it, and the package put `drover` in /usr/bin;
 * - `unpacked`: `npm start` or an unpacked build: nothing updates it; the launcher runs it in place.
 */
export type Distribution = { kind: 'appimage'; appImage: string } | { kind: 'deb' } | { kind: 'unpacked' };

/** The `drover` the .deb installs (build/linux/drover). */
export const PACKAGE_CLI_PATH = '/usr/bin/drover';

export interface RuntimeFacts {
  isPackaged: boolean;
  env: NodeJS.ProcessEnv;
  /** Electron's resources folder (holds app.asar, and `package-type` in a .deb). */
  resourcesPath: string;
}

function readPackageType(resourcesPath: string): string | null {
  try {
    return fs.readFileSync(path.join(resourcesPath, 'package-type'), 'utf8').trim();
  } catch {
    return null;
  }
}

/**
 * The AppImage runtime sets APPIMAGE to the file it runs from, so it wins. electron-builder writes
 * `resources/package-type` for the .deb (into the unpacked folder both packages are made from,
 * so an AppImage may carry it too: hence the order).
 */
export function detectDistribution({ isPackaged, env, resourcesPath }: RuntimeFacts): Distribution {
  if (!isPackaged) return { kind: 'unpacked' };
  const appImage = env.APPIMAGE;
  if (appImage && path.isAbsolute(appImage)) return { kind: 'appimage', appImage };
  if (readPackageType(resourcesPath) === 'deb') return { kind: 'deb' };
  return { kind: 'unpacked' };
}

/** AppRun adds this Chromium flag when it finds no user namespaces, unless it is already there. */
const APPRUN_SANDBOX_FLAG = '--no-sandbox';

/**
 * The AppImage's argv for running the CLI as Node. The AppImage mounts itself and AppRun runs the
 * Electron binary with our arguments, so the CLI's path is only known inside: a one-line `-e`
 * program finds it beside the binary. AppRun would put `--no-sandbox` in front of the arguments
 * (an option Node refuses) unless one is there already, so the launcher passes one after `--`,
 * where it reaches the program as an argument, and the program drops it.
 */
export function appImageCliCommand(appImage: string, cliFromRuntimeFolder: string): string[] {
  const program = [
    'const path = require("path");',
    `const cli = path.join(path.dirname(process.execPath), ${JSON.stringify(cliFromRuntimeFolder)});`,
    `const args = process.argv.slice(1).filter((arg, i) => i > 0 || arg !== ${JSON.stringify(APPRUN_SANDBOX_FLAG)});`,
    'process.argv = [process.argv[0], cli, ...args];',
    'require(cli);',
  ].join(' ');
  return [appImage, '-e', program, '--', APPRUN_SANDBOX_FLAG];
}

export interface CliLocation {
  /** The Electron binary. */
  execPath: string;
  /** The bundled CLI (dist/electron/cli.js, inside app.asar when packaged). */
  cliPath: string;
}

/** What "Install command line tool" installs for this distribution. */
export function commandLineToolSource(distribution: Distribution, { execPath, cliPath }: CliLocation, fileExists = fs.existsSync): CommandLineToolSource {
  const env = { ELECTRON_RUN_AS_NODE: '1' };
  switch (distribution.kind) {
    case 'appimage':
      return { kind: 'launcher', command: appImageCliCommand(distribution.appImage, path.relative(path.dirname(execPath), cliPath)), env };
    case 'deb':
      if (fileExists(PACKAGE_CLI_PATH)) return { kind: 'package', path: PACKAGE_CLI_PATH };
      return { kind: 'launcher', command: [execPath, cliPath], env };
    case 'unpacked':
      return { kind: 'launcher', command: [execPath, cliPath], env };
  }
}
