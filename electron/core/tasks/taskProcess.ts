import { randomBytes } from 'node:crypto';
import os from 'node:os';
import * as pty from 'node-pty';
import { ExitMarkerScanner } from './exitMarker';
import { readProcessStartTime, terminateProcessGroup } from '../process/processGroup';

export interface TaskProcessExit {
  exitCode: number | null;
  signal: string | null;
}

export interface TaskProcessOptions {
  command: string;
  cwd: string;
  env: Record<string, string>;
  onData(data: string): void;
  onExit(exit: TaskProcessExit): void;
}

const SIGNAL_NAMES = new Map<number, string>(Object.entries(os.constants.signals).map(([name, n]) => [n, name]));

/**
 * Runs the command in the user's shell, then prints the exit marker and waits for Drover to
 * acknowledge it, so the PTY stays open until all output has been read. TERM and HUP are trapped
 * (not ignored, so the command still gets the default) to keep the wrapper alive until the command
 * itself has ended and its status is reported.
 */
const WRAPPER = `trap : TERM HUP; "$1" -c "$2"; s=$?; printf '\\033]777;drover-exit;%s;%d\\007' "$3" "$s"; read -r _; exit "$s"`;

function userShell(env: Record<string, string>): string {
  return env.SHELL && env.SHELL.length > 0 ? env.SHELL : '/bin/sh';
}

/** A shell status above 128 means the command died of signal (status - 128). */
function fromShellStatus(status: number): TaskProcessExit {
  const signal = status > 128 ? SIGNAL_NAMES.get(status - 128) : undefined;
  return signal ? { exitCode: null, signal } : { exitCode: status, signal: null };
}

/**
 * One background task's command in a PTY. node-pty makes the child a session (and so process
 * group) leader, which lets cancel signal everything the command started.
 */
export class TaskProcess {
  readonly pid: number;
  readonly startTime: string | null;
  private readonly terminal: pty.IPty;
  private readonly marker = new ExitMarkerScanner(randomBytes(9).toString('base64url'));

  constructor(options: TaskProcessOptions) {
    this.terminal = pty.spawn('/bin/sh', ['-c', WRAPPER, 'drover-task', userShell(options.env), options.command, this.marker.nonce], {
      name: 'xterm-256color',
      cols: 160,
      rows: 40,
      cwd: options.cwd,
      env: options.env,
    });
    this.pid = this.terminal.pid;
    this.startTime = readProcessStartTime(this.pid);
    this.terminal.onData((chunk) => {
      const output = this.marker.feed(chunk);
      if (output) options.onData(output);
      if (this.marker.markerSeen) this.acknowledgeMarker();
    });
    this.terminal.onExit(({ exitCode, signal }) => {
      const rest = this.marker.flush();
      if (rest) options.onData(rest);
      const status = this.marker.exitStatus;
      if (status !== null) options.onExit(fromShellStatus(status));
      else if (signal) options.onExit({ exitCode: null, signal: SIGNAL_NAMES.get(signal) ?? String(signal) });
      else options.onExit({ exitCode, signal: null });
    });
  }

  /** SIGTERM now, SIGKILL after the grace period; returns what cancels the kill. */
  terminate(graceMs: number): () => void {
    return terminateProcessGroup(this.pid, graceMs);
  }

  private acknowledged = false;

  private acknowledgeMarker(): void {
    if (this.acknowledged) return;
    this.acknowledged = true;
    try {
      // '\n', not '\r': a command may have left the terminal raw, where '\r' is no line end.
      this.terminal.write('\n');
    } catch {
      // The wrapper is already gone; its exit is reported all the same.
    }
  }
}
