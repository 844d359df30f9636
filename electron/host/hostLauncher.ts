import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { HOST_LOG_FILE } from './hostRecord';
import { assertOwnDataDir, openOwnFile } from './privateDataDir';

/** How to run `drover host run` for a data dir: the CLI of this Drover, on its own runtime. */
export interface HostCommand {
  command: string;
  args: string[];
  env: NodeJS.ProcessEnv;
}

export interface EnsureHostOptions {
  dataDir: string;
  socketPath: string;
  start: HostCommand;
  /** How long a new host may take to answer (it reconciles every project first). */
  timeoutMs?: number;
}

/** The host's log is kept to about this size: a start beyond it moves it to `host.log.1`. */
const MAX_LOG_BYTES = 10 * 1024 * 1024;
const POLL_STEPS_MS = [25, 50, 100, 200, 400];
/** What `drover host run` prints when another host holds the data dir: then that one will answer. */
const ANOTHER_HOST = 'Another Drover host is running';

/** Resolves true when a host answers on the socket. */
export function hostAnswers(socketPath: string): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = net.connect(socketPath);
    probe.once('connect', () => {
      probe.destroy();
      resolve(true);
    });
    probe.once('error', () => resolve(false));
  });
}

function openLog(dataDir: string): { fd: number; file: string; from: number } {
  const file = path.join(dataDir, HOST_LOG_FILE);
  assertOwnDataDir(dataDir);
  try {
    fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    const size = fs.lstatSync(file, { throwIfNoEntry: false })?.size ?? 0;
    if (size > MAX_LOG_BYTES) fs.renameSync(file, `${file}.1`);
    const fd = openOwnFile(file, fs.constants.O_WRONLY | fs.constants.O_APPEND | fs.constants.O_CREAT);
    return { fd, file, from: fs.fstatSync(fd).size };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'EROFS' && code !== 'EACCES' && code !== 'EPERM') throw error;
    throw new Error(`Drover cannot write to its data dir ${dataDir} (${code === 'EROFS' ? 'a read-only file system' : 'permission denied'}): give it a folder you can write to (--data-dir or DROVER_DATA_DIR).`, { cause: error });
  }
}

function logSince(file: string, from: number): string {
  try {
    return fs.readFileSync(file).subarray(from).toString('utf8').trim();
  } catch {
    return '';
  }
}

/**
 * Makes sure a host runs for the data dir: when none answers on its socket, starts one, detached in
 * a session of its own and logging to `host.log` in the data dir, so it outlives whoever started it.
 * Two clients may race to start one: the data dir's lock lets one host win, the other exits saying
 * so, and both clients use the winner. A host that fails to start is reported with what it logged.
 * Resolves whether it had to start one.
 */
export async function ensureHost(options: EnsureHostOptions): Promise<'running' | 'started'> {
  if (await hostAnswers(options.socketPath)) return 'running';
  const deadline = Date.now() + (options.timeoutMs ?? 30_000);
  let starting = spawnHost(options);
  for (let attempt = 0; ; attempt++) {
    if (await hostAnswers(options.socketPath)) return 'started';
    const ended = starting.exit;
    const said = logSince(starting.log, starting.from);
    if (ended && !said.includes(ANOTHER_HOST)) {
      const how = ended.signal ? `was killed by ${ended.signal}` : ended.code === null ? 'could not be run' : `exited with code ${ended.code}`;
      throw new Error(`The Drover host could not start: it ${how}.${said ? `\n${said.split('\n').slice(-10).join('\n')}` : ''}\nIts log: ${starting.log}`);
    }
    if (Date.now() >= deadline) throw new Error(`The Drover host did not answer on ${options.socketPath} within ${Math.round((options.timeoutMs ?? 30_000) / 1000)} s. Its log: ${starting.log}`);
    await new Promise((resolve) => setTimeout(resolve, POLL_STEPS_MS[Math.min(attempt, POLL_STEPS_MS.length - 1)]));
    // Another host held the data dir: it answers soon, or it was one still stopping, and the next try wins.
    if (ended) starting = spawnHost(options);
  }
}

interface StartingHost {
  log: string;
  /** Where this start's lines begin in the log. */
  from: number;
  exit: { code: number | null; signal: NodeJS.Signals | null } | null;
}

function spawnHost(options: EnsureHostOptions): StartingHost {
  const log = openLog(options.dataDir);
  const starting: StartingHost = { log: log.file, from: log.from, exit: null };
  try {
    const spawned = spawn(options.start.command, options.start.args, { detached: true, stdio: ['ignore', log.fd, log.fd], env: options.start.env });
    spawned.once('exit', (code, signal) => (starting.exit = { code, signal }));
    spawned.once('error', (error) => {
      starting.exit = { code: null, signal: null };
      fs.appendFileSync(log.file, `could not run ${options.start.command}: ${error.message}\n`);
    });
    spawned.unref();
  } finally {
    fs.closeSync(log.fd);
  }
  return starting;
}
