import { SerializeAddon } from '@xterm/addon-serialize';
import { Terminal } from '@xterm/headless';
import { contentEnd, serializeTerminal, styledRow } from './scrollbackSerializer';

type Op = { kind: 'data'; data: string } | { kind: 'resize'; cols: number; rows: number };

interface Waiter {
  /** How many ops must have been applied. */
  target: number;
  /** Runs at exactly that point, before the next op touches the terminal. */
  run(): void;
}

export interface MirrorSnapshot {
  /** Written into an empty terminal of `cols` x `rows`, reproduces the mirror's scrollback, screen and modes. */
  data: string;
  cols: number;
  rows: number;
}

/**
 * The host's own copy of an agent's terminal: every byte the agent wrote, parsed into a headless
 * xterm with a bounded scrollback. State detection reads its screen, and every client that attaches
 * gets it serialized (see AgentTerminal). Output and resizes apply in the order they came; a reader
 * sees the terminal exactly as it stood after everything written before it asked, never part of a
 * later write. `backlog` says how much waits to be parsed, so the PTY can be paused while the mirror
 * catches up (a flood never grows an unbounded queue).
 */
export class ScreenMirror {
  private readonly terminal: Terminal;
  private readonly serializer = new SerializeAddon();
  private readonly queue: Op[] = [];
  private readonly waiters: Waiter[] = [];
  private enqueued = 0;
  private applied = 0;
  private parsing = false;
  private queuedChars = 0;
  private disposed = false;

  constructor(
    cols: number,
    rows: number,
    scrollbackLines: number,
    /** Called with the characters parsed, as the mirror works through its backlog. */
    private readonly onParsed: (chars: number) => void = () => {},
  ) {
    this.terminal = new Terminal({ cols, rows, scrollback: scrollbackLines, allowProposedApi: true });
    this.terminal.loadAddon(this.serializer);
  }

  get cols(): number {
    return this.terminal.cols;
  }

  get rows(): number {
    return this.terminal.rows;
  }

  /** Characters written but not parsed yet. */
  get backlog(): number {
    return this.queuedChars;
  }

  write(data: string): void {
    if (data.length === 0) return;
    this.queuedChars += data.length;
    this.enqueue({ kind: 'data', data });
  }

  /** Takes effect after everything written so far, as the PTY's own resize did. */
  resize(cols: number, rows: number): void {
    this.enqueue({ kind: 'resize', cols, rows });
  }

  setScrollbackLines(lines: number): void {
    this.terminal.options.scrollback = lines;
  }

  /**
   * The visible screen as text, once all output so far is parsed: one line per row, except that a
   * row the terminal wrapped is joined to the row it continues (so a long line reads as one).
   */
  text(): Promise<string> {
    return this.afterWritten(() => this.rowsText(this.terminal.buffer.active.baseY, this.terminal.rows));
  }

  /**
   * The scrollback and the screen as text, the same way; `styled`, each run of one look after the
   * SGR that gives it, so two terminals that read the same look the same.
   */
  allText({ styled = false } = {}): Promise<string> {
    return this.afterWritten(() => this.rowsText(0, this.terminal.buffer.active.length, styled));
  }

  /** Whether the program asked for bracketed paste (DECSET 2004), once all output so far is parsed. */
  bracketedPaste(): Promise<boolean> {
    return this.afterWritten(() => this.terminal.modes.bracketedPasteMode);
  }

  /**
   * Everything written so far, serialized (serializeTerminal).
   */
  snapshot(): Promise<MirrorSnapshot> {
    return this.afterWritten(() => ({
      data: serializeTerminal(this.terminal, this.serializer),
      cols: this.terminal.cols,
      rows: this.terminal.rows,
    }));
  }

  dispose(): void {
    this.disposed = true;
    this.queue.length = 0;
    this.waiters.length = 0;
    this.terminal.dispose();
  }

  private enqueue(op: Op): void {
    if (this.disposed) return;
    this.queue.push(op);
    this.enqueued++;
    this.pump();
  }

  private afterWritten<T>(read: () => T): Promise<T> {
    if (this.disposed) return Promise.reject(new Error('the terminal mirror was closed'));
    return new Promise<T>((resolve, reject) => {
      const run = () => {
        try {
          resolve(read());
        } catch (error) {
          reject(error instanceof Error ? error : new Error(String(error)));
        }
      };
      this.waiters.push({ target: this.enqueued, run });
      this.pump();
    });
  }

  /** Applies queued ops in order; a waiter runs the moment its point is reached. */
  private pump(): void {
    while (!this.parsing && !this.disposed) {
      this.runReachedWaiters();
      const op = this.queue.shift();
      if (!op) return;
      if (op.kind === 'resize') {
        if (op.cols !== this.terminal.cols || op.rows !== this.terminal.rows) this.terminal.resize(op.cols, op.rows);
        this.applied++;
        continue;
      }
      // Consecutive writes parse as one, up to the next point a waiter needs to see.
      const limit = Math.min(...this.waiters.map((waiter) => waiter.target), Infinity);
      const batch = [op.data];
      let ops = 1;
      while (this.applied + ops < limit && this.queue[0]?.kind === 'data') {
        batch.push((this.queue.shift() as { data: string }).data);
        ops++;
      }
      const data = batch.length === 1 ? op.data : batch.join('');
      this.parsing = true;
      this.terminal.write(data, () => {
        this.parsing = false;
        this.applied += ops;
        this.queuedChars -= data.length;
        this.onParsed(data.length);
        this.pump();
      });
    }
  }

  private runReachedWaiters(): void {
    for (let i = 0; i < this.waiters.length; ) {
      const waiter = this.waiters[i] as Waiter;
      if (waiter.target <= this.applied) {
        this.waiters.splice(i, 1);
        waiter.run();
      } else i++;
    }
  }

  private rowsText(first: number, count: number, styled = false): string {
    const buffer = this.terminal.buffer.active;
    const cell = buffer.getNullCell();
    const end = Math.min(first + count, buffer.length);
    const lines: string[] = [];
    for (let row = first; row < end; row++) {
      const line = buffer.getLine(row);
      // A row continued on the next one keeps its trailing blanks: they may be a word's space.
      const continued = row + 1 < end && buffer.getLine(row + 1)?.isWrapped === true;
      const text = !line ? '' : styled ? styledRow(line, cell, continued ? line.length : contentEnd(line, cell)) : line.translateToString(!continued);
      if (line?.isWrapped && lines.length > 0) lines[lines.length - 1] += text;
      else lines.push(text);
    }
    return lines.join('\n');
  }
}
