import { execFile, spawn, type ChildProcess } from 'node:child_process';
import readline from 'node:readline';
import { SERVING_LINE_PREFIX } from '../shared/protocol';
import { CLI_PATH } from './buildOnce';

export interface ServeProcess {
  child: ChildProcess;
  url: string;
  stderr: () => string;
  stop(signal?: NodeJS.Signals): Promise<void>;
}

/**
 * Starts `drover serve` as its own process and resolves once it prints its serving line. With
 * `ownProcessGroup`, the host leads a process group of its own and `stop` signals that whole group
 * (the host and every child it did not put in a group of their own, such as its git commands).
 */
export function startServe(args: string[], env: NodeJS.ProcessEnv = process.env, { ownProcessGroup = false } = {}): Promise<ServeProcess> {
  const child = spawn(process.execPath, [CLI_PATH, 'serve', '--port', '0', ...args], { env, stdio: ['ignore', 'pipe', 'pipe'], detached: ownProcessGroup });
  let stderr = '';
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`drover serve did not start in time:\n${stderr}`)), 20_000);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`drover serve exited with ${code}:\n${stderr}`));
    });
    readline.createInterface({ input: child.stdout as NodeJS.ReadableStream }).on('line', (line) => {
      if (!line.startsWith(SERVING_LINE_PREFIX)) return;
      clearTimeout(timer);
      resolve({
        child,
        url: line.slice(SERVING_LINE_PREFIX.length),
        stderr: () => stderr,
        stop: async (signal = 'SIGTERM') => {
          if (child.exitCode === null && child.signalCode === null) {
            if (ownProcessGroup) process.kill(-(child.pid as number), signal);
            else child.kill(signal);
          }
          await exited;
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
