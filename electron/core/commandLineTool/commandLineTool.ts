import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { tildePath, type CommandLineToolInstall } from '../../../shared/commandLineTool';
import { fail } from '../errors';
import { cliScript, scriptDefault } from '../profiles/cliShim';
import { findExecutable } from '../profiles/commandLookup';

/**
 * Where "Install command line tool" gets `drover` from: a launcher it writes, running the CLI with
 * this Drover's own runtime (`command` + `env`, stable across runs: for an AppImage, the AppImage
 * file, not its temporary mount), or a system package that already put it on PATH.
 */
export const CommandLineToolSourceSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('launcher'), command: z.array(z.string()).min(1).readonly(), env: z.record(z.string(), z.string()).optional() }),
  z.object({ kind: z.literal('package'), path: z.string().min(1) }),
]);
export type CommandLineToolSource = z.infer<typeof CommandLineToolSourceSchema>;

/** The launcher's first comment line also tells Drover that a file is its own to rewrite. */
export const LAUNCHER_COMMENT = [
  `drover: Drover's command line tool, written by the app's "Install command line tool".`,
  "It runs the CLI with the app's own runtime; installing again rewrites it.",
];
const MARKER = `# ${LAUNCHER_COMMENT[0]}`;

function homeOf(env: NodeJS.ProcessEnv): string {
  return env.HOME || os.homedir();
}

/** `~/.local/bin/drover`: the user's own bin folder (XDG), on PATH by default on most distributions. */
export function launcherPath(env: NodeJS.ProcessEnv): string {
  return path.join(homeOf(env), '.local', 'bin', 'drover');
}

/** Where the launcher finds its Drover unless the caller names one (DROVER_DATA_DIR, or --data-dir, which wins over both). */
const DATA_DIR_VARIABLE = 'DROVER_DATA_DIR';

/** The launcher keeps the data dir of the Drover that installed it: one started with --data-dir too. */
function launcherText(source: Extract<CommandLineToolSource, { kind: 'launcher' }>, dataDir: string | null): string {
  return cliScript(source.command, source.env, LAUNCHER_COMMENT, dataDir === null ? {} : { [DATA_DIR_VARIABLE]: dataDir });
}

function readIfExists(file: string): string | null {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

function isOurs(file: string): boolean {
  if (fs.lstatSync(file, { throwIfNoEntry: false })?.isSymbolicLink()) return false;
  return readIfExists(file)?.split('\n')[1] === MARKER;
}

/** Written next to the target and renamed over it, so a `drover` starting meanwhile never reads half a script. */
function writeExecutable(file: string, text: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const partial = `${file}.${process.pid}.partial`;
  try {
    fs.writeFileSync(partial, text, { mode: 0o755 });
    fs.chmodSync(partial, 0o755);
    fs.renameSync(partial, file);
  } finally {
    fs.rmSync(partial, { force: true });
  }
}

function realOrResolved(file: string): string {
  try {
    return fs.realpathSync(file);
  } catch {
    return path.resolve(file);
  }
}

/**
 * Whether a shell started with this PATH runs `file` for `drover`: its folder must be on PATH, and
 * no other `drover` may come before it.
 */
export function pathReport(file: string, pathVariable: string | undefined): Pick<CommandLineToolInstall, 'onPath' | 'shadowedBy'> {
  const folder = realOrResolved(path.dirname(file));
  // An empty PATH entry means the current folder, which says nothing about a new terminal.
  const entries = (pathVariable ?? '').split(':').filter((entry) => entry !== '');
  const at = entries.findIndex((entry) => realOrResolved(entry) === folder);
  const first = findExecutable('drover', { PATH: (at >= 0 ? entries.slice(0, at) : entries).join(':') });
  return { onPath: at >= 0, shadowedBy: first && realOrResolved(first) !== realOrResolved(file) ? first : null };
}

function cannotWrite(file: string, env: NodeJS.ProcessEnv, error: unknown): never {
  const code = (error as NodeJS.ErrnoException).code;
  // A full disk keeps its own error code (the door reports it as such).
  if (code === 'ENOSPC') throw error;
  fail('invalid-path', `Could not write ${tildePath(file, homeOf(env))}: ${error instanceof Error ? error.message : String(error)}`);
}

/**
 * "Install command line tool": writes (or rewrites) the launcher, never over a file it did not write;
 * the launcher reaches the Drover of `dataDir`.
 */
export function installCommandLineTool(source: CommandLineToolSource, env: NodeJS.ProcessEnv, dataDir: string): CommandLineToolInstall {
  const home = homeOf(env);
  if (source.kind === 'package') return { path: source.path, source: 'package', home, ...pathReport(source.path, env.PATH) };
  const file = launcherPath(env);
  let foreign = false;
  try {
    foreign = fs.existsSync(file) && !isOurs(file);
    if (!foreign) writeExecutable(file, launcherText(source, dataDir));
  } catch (error) {
    cannotWrite(file, env, error);
  }
  if (foreign) fail('conflict', `${tildePath(file, home)} already exists and was not written by Drover. Move it away (or remove it) and install again.`);
  return { path: file, source: 'written', home, ...pathReport(file, env.PATH) };
}

/**
 * Points an installed launcher at this runtime (an AppImage that was moved, or renamed by an
 * update), keeping the data dir it was installed for. Does nothing when no launcher of Drover's is
 * installed; returns whether it rewrote one.
 */
export function refreshCommandLineTool(source: CommandLineToolSource, env: NodeJS.ProcessEnv): boolean {
  if (source.kind === 'package') return false;
  const file = launcherPath(env);
  if (!fs.existsSync(file) || !isOurs(file)) return false;
  const installed = readIfExists(file) ?? '';
  const text = launcherText(source, scriptDefault(installed, DATA_DIR_VARIABLE));
  if (installed === text) return false;
  writeExecutable(file, text);
  return true;
}
