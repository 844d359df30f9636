import os from 'node:os';
import * as pty from 'node-pty';
import { readProcessStartTime, signalProcessGroup } from './processControl';

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

const SIGNAL_NAMES = new Map<number, string>(
  Object.entries(os.constants.signals).map(([name, n]) => [n, name]),
);

function userShell(): string {
  return process.env.SHELL && process.env.SHELL.length > 0 ? process.env.SHELL : '/bin/sh';
}

/**
 * One background task's command, run by the user's shell in a PTY. node-pty makes the child a
 * session (and so process-group) leader, which lets cancel signal everything the command started.
 */
export class TaskProcess {
  readonly pid: number;
  readonly startTime: string | null;
  private readonly terminal: pty.IPty;

  constructor(options: TaskProcessOptions) {
    this.terminal = pty.spawn(userShell(), ['-c', options.command], {
      name: 'xterm-256color',
      cols: 160,
      rows: 40,
      cwd: options.cwd,
      env: options.env,
    });
    this.pid = this.terminal.pid;
    this.startTime = readProcessStartTime(this.pid);
    this.terminal.onData(options.onData);
    this.terminal.onExit(({ exitCode, signal }) => {
      const signalName = signal ? (SIGNAL_NAMES.get(signal) ?? String(signal)) : null;
      options.onExit({ exitCode: signalName ? null : exitCode, signal: signalName });
    });
  }

  signal(signal: NodeJS.Signals): void {
    signalProcessGroup(this.pid, signal);
  }
}
