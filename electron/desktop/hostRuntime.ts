import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { CommandLineToolSource } from '../core/commandLineTool/commandLineTool';
import { COMMAND_LINE_TOOL_ENV } from '../cli/hostCommands';
import type { HostCommand } from '../host/hostLauncher';
import type { CliLocation, Distribution } from './distribution';

const COPY_PREFIX = 'host-';

export interface DesktopHostInput {
  distribution: Distribution;
  cli: CliLocation;
  dataDir: string;
  version: string;
  env: NodeJS.ProcessEnv;
  commandLineTool: CommandLineToolSource;
}

/** `~/.cache/drover` (XDG): where an AppImage's host runs from, one copy per version. */
export function hostCopiesDir(env: NodeJS.ProcessEnv): string {
  return path.join(env.XDG_CACHE_HOME || path.join(env.HOME || os.homedir(), '.cache'), 'drover');
}

function inside(folder: string, file: string): boolean {
  const relative = path.relative(folder, file);
  return relative !== '' && !relative.startsWith('..') && !path.isAbsolute(relative);
}

/**
 * The AppImage's files, copied out of its FUSE mount once per version: the mount goes when the
 * window quits, and an update replaces the AppImage file, but the host must go on. Copied under a
 * temporary name and renamed into place, so a copy under the real name is always whole.
 */
export function ensureHostCopy(appDir: string, version: string, copiesDir: string): string {
  const copy = path.join(copiesDir, `${COPY_PREFIX}${version}`);
  if (fs.existsSync(copy)) return copy;
  fs.mkdirSync(copiesDir, { recursive: true, mode: 0o700 });
  const building = `${copy}.copying-${process.pid}`;
  fs.rmSync(building, { recursive: true, force: true });
  fs.cpSync(appDir, building, { recursive: true, verbatimSymlinks: true });
  try {
    fs.renameSync(building, copy);
  } catch (error) {
    // Another window copied the same version meanwhile: theirs is as good.
    fs.rmSync(building, { recursive: true, force: true });
    if (!fs.existsSync(copy)) throw error;
  }
  return copy;
}

/** Folders some running process was started from (its /proc/PID/exe is inside one of them). */
function foldersInUse(folders: readonly string[]): Set<string> {
  const used = new Set<string>();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let exe: string;
    try {
      exe = fs.readlinkSync(`/proc/${entry}/exe`);
    } catch {
      continue;
    }
    for (const folder of folders) if (inside(folder, exe)) used.add(folder);
  }
  return used;
}

/** Removes copies of other versions that no process runs from any more (and half-made copies of dead copiers). */
export function cleanHostCopies(copiesDir: string, keepVersion: string): string[] {
  let entries: string[];
  try {
    entries = fs.readdirSync(copiesDir);
  } catch {
    return [];
  }
  const candidates = entries.filter((entry) => entry.startsWith(COPY_PREFIX) && entry !== `${COPY_PREFIX}${keepVersion}`).map((entry) => path.join(copiesDir, entry));
  const used = foldersInUse(candidates);
  const removed = candidates.filter((folder) => !used.has(folder) && !isCopyInProgress(folder));
  for (const folder of removed) fs.rmSync(folder, { recursive: true, force: true });
  return removed;
}

/** A `.copying-PID` folder whose copier still runs. */
function isCopyInProgress(folder: string): boolean {
  const pid = /\.copying-(\d+)$/.exec(folder)?.[1];
  if (!pid) return false;
  try {
    process.kill(Number(pid), 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * How the desktop app starts the host: the bundled CLI (`drover host run`) on this Electron binary
 * run as Node; for an AppImage, from its copy outside the mount. The .deb's /opt/Drover and an
 * unpacked app stay where they are.
 */
export function desktopHostCommand(input: DesktopHostInput): HostCommand {
  let { execPath, cliPath } = input.cli;
  const appDir = input.env.APPDIR;
  if (input.distribution.kind === 'appimage' && appDir && inside(appDir, execPath)) {
    const copy = ensureHostCopy(appDir, input.version, hostCopiesDir(input.env));
    execPath = path.join(copy, path.relative(appDir, execPath));
    cliPath = path.join(copy, path.relative(appDir, cliPath));
  }
  return {
    command: execPath,
    args: [cliPath, 'host', 'run', '--data-dir', input.dataDir],
    env: { ...input.env, ELECTRON_RUN_AS_NODE: '1', [COMMAND_LINE_TOOL_ENV]: JSON.stringify(input.commandLineTool) },
  };
}
