import * as pty from 'node-pty';
import { PtyInput } from '../process/ptyInput';
import { isProcessGroupAlive, readProcessStartTime, terminateProcessGroup } from '../process/processGroup';
import type { AgentTerminal } from './agentTerminal';
import { ProgramStatusScanner, type ProgramState } from './programStatus';

/** How often a stop looks whether the agent's process group is gone. */
const GROUP_POLL_MS = 50;

export interface AgentProcessOptions {
  file: string;
  args: string[];
  cwd: string;
  env: Record<string, string>;
  /** Output must be quiet this long before the screen is worth reading. */
  quietMs: number;
  /** The agent's terminal in the host (scrollback, mirror, clients); it outlives this process, whose size it gives. */
  terminal: AgentTerminal;
  /** Output has been quiet for `quietMs`: the screen settled. */
  onQuiet(): void;
  onExit(exitCode: number | null): void;
  /** The CLI reported its own state on the terminal (see ProgramStatusScanner). */
  onProgramState(state: ProgramState): void;
}

/**
 * One agent CLI in a PTY (its own process group): its output goes to the agent's terminal (the
 * scrollback, the host's mirror, the clients), and a quiet period after output tells when to read
 * the screen.
 */
export class AgentProcess {
  readonly pid: number;
  readonly startTime: string | null;
  /** Resolves once the process has exited and its end was reported. */
  readonly exited: Promise<void>;
  private readonly pty: pty.IPty;
  private readonly input: PtyInput;
  private readonly status = new ProgramStatusScanner();
  private quietTimer: NodeJS.Timeout | undefined;
  /** performance.now() of the last output: the quiet timer is armed once and looks at it when it fires. */
  private lastOutputAt = 0;
  private cancelKill: (() => void) | undefined;
  private stopReason: string | undefined;
  private stopped: Promise<void> | undefined;
  private ended = false;

  /** Throws when the command cannot be started. */
  constructor(private readonly options: AgentProcessOptions) {
    this.pty = pty.spawn(options.file, options.args, {
      name: 'xterm-256color',
      cols: options.terminal.cols,
      rows: options.terminal.rows,
      cwd: options.cwd,
      env: options.env,
    });
    this.pid = this.pty.pid;
    this.input = new PtyInput(this.pty);
    this.startTime = readProcessStartTime(this.pid);
    options.terminal.connect(this.pty);
    let resolveExit: () => void = () => {};
    this.exited = new Promise((resolve) => (resolveExit = resolve));
    this.pty.onData((data) => this.onOutput(data));
    this.pty.onExit(({ exitCode, signal }) => {
      this.ended = true;
      this.input.close();
      clearTimeout(this.quietTimer);
      options.terminal.flush();
      options.terminal.connect(null);
      options.onExit(signal ? null : exitCode);
      resolveExit();
    });
  }

  /** Why a stop was asked for; undefined when the process ended on its own. */
  get stoppedBecause(): string | undefined {
    return this.stopReason;
  }

  /**
   * Input for the agent; once its PTY is gone (a wake racing the exit, a paste the program exited
   * before reading), there is no one to take it and it goes nowhere (see PtyInput).
   */
  write(data: string): void {
    if (this.ended) return;
    this.input.write(data);
    this.options.terminal.inputSent();
  }

  resize(cols: number, rows: number): void {
    this.pty.resize(cols, rows);
    this.options.terminal.resize(cols, rows);
  }

  /** The visible screen as text, once all output so far is parsed. */
  screen(): Promise<string> {
    return this.options.terminal.screen();
  }

  /** Whether the CLI asked for bracketed paste, once all output so far is parsed. */
  bracketedPaste(): Promise<boolean> {
    return this.options.terminal.bracketedPaste();
  }

  /**
   * SIGTERM to the group, SIGKILL after the grace period; resolves once every process of the group
   * exited. A CLI's launcher may exit before the program it runs (Copilot CLI's npm loader ends at
   * SIGTERM while its native binary still saves the session), and a resume must not start beside it.
   */
  stop(reason: string, graceMs: number): Promise<void> {
    if (this.stopped === undefined) {
      this.stopReason = reason;
      this.cancelKill = terminateProcessGroup(this.pid, graceMs);
      this.stopped = this.exited.then(() => this.groupEnded()).finally(() => this.cancelKill?.());
    }
    return this.stopped;
  }

  private async groupEnded(): Promise<void> {
    while (isProcessGroupAlive(this.pid)) await new Promise((resolve) => setTimeout(resolve, GROUP_POLL_MS));
  }

  private onOutput(data: string): void {
    this.options.terminal.write(data);
    for (const state of this.status.feed(data)) this.options.onProgramState(state);
    this.lastOutputAt = performance.now();
    this.quietTimer ??= setTimeout(() => this.whenQuietDue(), this.options.quietMs);
  }

  /**
   * Re-arming the timer at every chunk of output cost a flood of 4 KiB reads a timer removed and
   * one added each (0.1 s of the host's CPU per 100 MB): it is armed once, and goes on waiting
   * for as long as output kept coming since.
   */
  private whenQuietDue(): void {
    const quietFor = performance.now() - this.lastOutputAt;
    if (quietFor < this.options.quietMs) {
      this.quietTimer = setTimeout(() => this.whenQuietDue(), Math.max(1, this.options.quietMs - quietFor));
      return;
    }
    this.quietTimer = undefined;
    this.options.onQuiet();
  }
}
