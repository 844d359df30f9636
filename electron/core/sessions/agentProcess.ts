import * as pty from 'node-pty';
import { readProcessStartTime, terminateProcessGroup } from '../process/processGroup';
import { ProgramStatusScanner, type ProgramState } from './programStatus';
import { ScreenMirror } from './screenMirror';
import type { ScrollbackLog } from './scrollbackLog';
import type { TerminalStream } from './terminalStream';

export interface AgentProcessOptions {
  file: string;
  args: string[];
  cwd: string;
  env: Record<string, string>;
  cols: number;
  rows: number;
  /** Output must be quiet this long before the screen is worth reading. */
  quietMs: number;
  scrollback: ScrollbackLog;
  /** The agent's stream to attached clients; it outlives this process. */
  stream: TerminalStream;
  /** Output has been quiet for `quietMs`: the screen settled. */
  onQuiet(): void;
  onExit(exitCode: number | null): void;
  /** The CLI reported its own state on the terminal (see ProgramStatusScanner). */
  onProgramState(state: ProgramState): void;
}

/**
 * One agent CLI in a PTY (its own process group): its output goes to the scrollback, the clients'
 * stream and a headless screen mirror, and a quiet period after output tells when to read the screen.
 */
export class AgentProcess {
  readonly pid: number;
  readonly startTime: string | null;
  /** Resolves once the process has exited and its end was reported. */
  readonly exited: Promise<void>;
  private readonly terminal: pty.IPty;
  private readonly mirror: ScreenMirror;
  private readonly status = new ProgramStatusScanner();
  private quietTimer: NodeJS.Timeout | undefined;
  private cancelKill: (() => void) | undefined;
  private stopReason: string | undefined;

  /** Throws when the command cannot be started. */
  constructor(private readonly options: AgentProcessOptions) {
    this.terminal = pty.spawn(options.file, options.args, {
      name: 'xterm-256color',
      cols: options.cols,
      rows: options.rows,
      cwd: options.cwd,
      env: options.env,
    });
    this.pid = this.terminal.pid;
    this.startTime = readProcessStartTime(this.pid);
    this.mirror = new ScreenMirror(options.cols, options.rows);
    options.stream.connect(this.terminal);
    let resolveExit: () => void = () => {};
    this.exited = new Promise((resolve) => (resolveExit = resolve));
    this.terminal.onData((data) => this.onOutput(data));
    this.terminal.onExit(({ exitCode, signal }) => {
      clearTimeout(this.quietTimer);
      this.cancelKill?.();
      options.scrollback.flush();
      options.stream.connect(null);
      this.mirror.dispose();
      options.onExit(signal ? null : exitCode);
      resolveExit();
    });
  }

  /** Why a stop was asked for; undefined when the process ended on its own. */
  get stoppedBecause(): string | undefined {
    return this.stopReason;
  }

  write(data: string): void {
    this.terminal.write(data);
  }

  resize(cols: number, rows: number): void {
    this.terminal.resize(cols, rows);
    this.mirror.resize(cols, rows);
  }

  /** The visible screen as text, once all output so far is parsed. */
  screen(): Promise<string> {
    return this.mirror.text();
  }

  /** Whether the CLI asked for bracketed paste, once all output so far is parsed. */
  bracketedPaste(): Promise<boolean> {
    return this.mirror.bracketedPaste();
  }

  /** SIGTERM to the group, SIGKILL after the grace period; resolves once it exited. */
  stop(reason: string, graceMs: number): Promise<void> {
    if (this.stopReason === undefined) {
      this.stopReason = reason;
      this.cancelKill = terminateProcessGroup(this.pid, graceMs);
    }
    return this.exited;
  }

  /** Per chunk only cheap work: the mirror parses output when it falls quiet (see ScreenMirror). */
  private onOutput(data: string): void {
    this.options.scrollback.append(data);
    this.mirror.write(data);
    this.options.stream.push(data);
    for (const state of this.status.feed(data)) this.options.onProgramState(state);
    clearTimeout(this.quietTimer);
    this.quietTimer = setTimeout(() => this.options.onQuiet(), this.options.quietMs);
  }
}
