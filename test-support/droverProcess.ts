import { execFile, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import { SERVING_LINE_PREFIX } from '../shared/protocol';
import { listLivePids } from '../electron/core/process/processGroup';
import { HOST_LOG_FILE, isRecordedHostAlive, readHostRecord, type HostRecord } from '../electron/host/hostRecord';
import { CLI_PATH } from './buildOnce';
import { waitFor } from './waitFor';

export interface ServeProcess {
  /** The `drover serve` process (the browser door); the host it started runs apart from it. */
  child: ChildProcess;
  url: string;
  /** Every URL serve printed on its serving lines, the first (`url`) first: a door that moved prints its new one. */
  urls(): string[];
  dataDir: string;
  /** What serve printed on stderr. */
  stderr: () => string;
  /** What the data dir's host logged since this serve started (a host it started: its reconciliation, its errors). */
  hostLog: () => string;
  /** The host's process id (it outlives serve). */
  hostPid(): number;
  /** The host that serve found or started is still running (it did not crash). */
  hostAlive(): boolean;
  /** Stops serve only (the signal goes to its whole process group): the door closes, the host and its work go on. */
  stopServe(signal?: NodeJS.Signals): Promise<void>;
  /**
   * Stops serve and the host: SIGTERM is a clean stop (agents stop, tasks end interrupted, as
   * `drover host stop` does); SIGKILL kills both, as a crash would, for boot reconciliation.
   */
  stop(signal?: NodeJS.Signals): Promise<void>;
}

function dataDirOf(args: readonly string[]): string {
  const at = args.indexOf('--data-dir');
  const dir = at >= 0 ? args[at + 1] : undefined;
  if (!dir) throw new Error('startServe needs --data-dir: a test never uses the default data dir');
  return path.resolve(dir);
}

function exitOf(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

/**
 * Stops the data dir's host and waits until it is gone. SIGTERM is its clean stop; SIGKILL is a
 * crash of the host process alone (as the kernel's OOM killer or a fault ends one): the git
 * commands it was running go on as orphans, and agents and tasks, in groups of their own, live on.
 * A test that needs git dead too kills the host's group itself.
 */
export async function stopHostOf(dataDir: string, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  const record: HostRecord | null = readHostRecord(dataDir);
  if (!record || !isRecordedHostAlive(record)) return;
  try {
    process.kill(record.pid, signal);
  } catch {
    return;
  }
  await waitFor(() => !isRecordedHostAlive(record), `the host ${record.pid} to stop after ${signal}`, 60_000);
}

/** Processes whose command line names `dir` or a path in it: hosts, serves and CLIs of a test's data dir. */
function droverProcessesIn(dir: string): number[] {
  const names = (arg: string) => arg === dir || arg.startsWith(`${dir}/`);
  return [...listLivePids()].filter((pid) => {
    if (pid === process.pid) return false;
    try {
      return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').some(names);
    } catch {
      return false;
    }
  });
}

/**
 * A test's last word on its temp dir, before removing it: SIGKILLs every process that names it,
 * until none does. stopHostOf reaches only the host that host.json records; a host still loading
 * (two clients raced to start one, and the loser was not yet at the lock) would take the lock once
 * the recorded one was killed, make the removed dir again, and run on for good.
 */
export async function endDroverProcessesIn(dir: string): Promise<void> {
  for (let found = droverProcessesIn(dir); found.length > 0; found = droverProcessesIn(dir)) {
    for (const pid of found) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // Gone already.
      }
    }
    // A killed process stops naming the dir once it is gone (a zombie's command line is empty).
    await waitFor(() => droverProcessesIn(dir).every((pid) => !found.includes(pid)), `the processes of ${dir} to end`, 30_000);
  }
}

/** Starts `drover serve` as its own process and resolves once it prints its serving line. */
export function startServe(args: string[], env: NodeJS.ProcessEnv = process.env): Promise<ServeProcess> {
  const dataDir = dataDirOf(args);
  const hostLogFile = path.join(dataDir, HOST_LOG_FILE);
  const logFrom = fs.existsSync(hostLogFile) ? fs.statSync(hostLogFile).size : 0;
  // A process group of its own, as a terminal gives a command: stopping it is signalling that group.
  const child = spawn(process.execPath, [CLI_PATH, 'serve', '--port', '0', ...args], { env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let stderr = '';
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const stopServe = async (signal: NodeJS.Signals = 'SIGTERM') => {
    if (child.exitCode === null && child.signalCode === null) process.kill(-(child.pid as number), signal);
    await exitOf(child);
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      // Not left running: a serve that came up late would start a host no teardown knows of.
      void stopServe('SIGKILL');
      reject(new Error(`drover serve did not start in time:\n${stderr}`));
    }, 30_000);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`drover serve exited with ${code}:\n${stderr}`));
    });
    const urls: string[] = [];
    readline.createInterface({ input: child.stdout as NodeJS.ReadableStream }).on('line', (line) => {
      if (!line.startsWith(SERVING_LINE_PREFIX)) return;
      urls.push(line.slice(SERVING_LINE_PREFIX.length));
      if (urls.length > 1) return;
      clearTimeout(timer);
      resolve({
        child,
        url: line.slice(SERVING_LINE_PREFIX.length),
        urls: () => [...urls],
        dataDir,
        stderr: () => stderr,
        hostLog: () => {
          try {
            return fs.readFileSync(hostLogFile).subarray(logFrom).toString('utf8');
          } catch {
            return '';
          }
        },
        hostPid: () => {
          const record = readHostRecord(dataDir);
          if (!record) throw new Error(`no host runs for ${dataDir}`);
          return record.pid;
        },
        hostAlive: () => {
          const record = readHostRecord(dataDir);
          return record !== null && isRecordedHostAlive(record);
        },
        stopServe,
        stop: async (signal = 'SIGTERM') => {
          // serve first: it would start a host again when its host went away.
          await stopServe(signal);
          await stopHostOf(dataDir, signal);
        },
      });
    });
  });
}

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the real `drover` CLI and collects what it printed and its exit code. */
export function runCli(args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv; input?: string } = {}): Promise<CliResult> {
  return new Promise((resolve) => {
    const child = execFile(process.execPath, [CLI_PATH, ...args], { cwd: options.cwd, env: options.env ?? process.env, timeout: 30_000 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
      resolve({ code, stdout, stderr });
    });
    child.stdin?.end(options.input ?? '');
  });
}
