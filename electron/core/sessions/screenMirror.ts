import { SerializeAddon } from '@xterm/addon-serialize';
import { Terminal } from '@xterm/headless';
import { cursorToColumn, plainAdvance } from './plainOutput';
import { contentEnd, serializeTerminal, styledRow } from './scrollbackSerializer';
import { SpilledScrollback } from './spilledScrollback';

interface DataOp {
  kind: 'data';
  data: string;
  /** What a look for output to drop learnt of it (see plainAdvance), from the column it starts at; false: not plain. */
  plain?: { from: number; lines: number; x: number } | false;
}

type Op = DataOp | { kind: 'resize'; cols: number; rows: number };

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

export interface ScreenMirrorOptions {
  /** Behind by this many characters, the mirror parses while output still comes, and drops what later output pushes out anyway. */
  farBehindChars?: number;
  /** Rows of scrollback the live terminal keeps at least; past twice as many, the older ones are spilled (see spill). */
  liveScrollbackRows?: number;
  /** The ms between two spills (SPILL_EVERY_MS). */
  spillEveryMs?: number;
}

/** Output quiet this long: the mirror parses what it holds. */
const QUIET_MS = 10;
const FAR_BEHIND_CHARS = 1024 * 1024;
/** A few seconds of a busy agent's output: the rows a program may still redraw stay live, and a spill takes many rows at once. */
const LIVE_SCROLLBACK_ROWS = 256;
/**
 * The most characters xterm parses in one go. Lines are the slow part of a parse (64 Ki characters of
 * `y\n` took 17 ms here, of one long line 2 ms), and xterm only yields to the event loop between
 * writes (after 12 ms of them): in larger pieces a flood of short lines held the host's loop, and a
 * keystroke's echo with it, for 50 to 200 ms at a time.
 */
const PARSE_SLICE_CHARS = 8 * 1024;
/**
 * A spill takes liveScrollbackRows rows at most, one this long after the last. Serializing a row is
 * the cost (256 rows: 2 to 3 ms here), and through a flood of lines the rows spilled are pushed out
 * again by the next ones: spilled as fast as they came, a flood beside a person typing spent 40 to
 * 60 ms at a time spilling rows it then let go.
 */
const SPILL_EVERY_MS = 100;

/** What xterm keeps to itself and a cut needs: whether its parser is between sequences, and the scroll region. */
interface XtermInternals {
  _core?: {
    _inputHandler?: { _parser?: { currentState?: unknown } };
    buffer?: { scrollTop?: unknown; scrollBottom?: unknown; ybase?: unknown; ydisp?: unknown; lines?: { trimStart?: unknown; maxLength?: unknown } };
  };
}

/**
 * The host's own copy of an agent's terminal: every byte the agent wrote, parsed into a headless
 * xterm with a bounded scrollback. State detection reads its screen, and every client that attaches
 * gets it serialized (see AgentTerminal). Output and resizes apply in the order they came; a reader
 * sees the terminal exactly as it stood after everything written before it asked, never part of a
 * later write.
 *
 * Parsing never stands in the output's way: what is written waits in a backlog the mirror parses
 * once output is quiet, when a reader asks, or when it is far behind (then a slice per turn of the
 * loop). Far behind in plain output (see plainAdvance), it drops what the plain output after it
 * would push out of the scrollback anyway, so a flood costs it only the tail it keeps; `backlog`
 * says how much waits, for whoever bounds it (AgentTerminal paces the PTY past a limit).
 *
 * Only the newest rows of the scrollback stay in the live terminal, whose rows cost their full
 * width in memory: older ones are spilled to text (SpilledScrollback), so a full scrollback costs
 * what its text does. Readers see the spilled rows and the live ones as one scrollback.
 */
export class ScreenMirror {
  private readonly terminal: Terminal;
  private readonly serializer = new SerializeAddon();
  private readonly queue: Op[] = [];
  private readonly waiters: Waiter[] = [];
  private readonly farBehindChars: number;
  private readonly liveScrollbackRows: number;
  private readonly spillEveryMs: number;
  private readonly spilled = new SpilledScrollback();
  /**
   * What one write to xterm takes on, so output keeps flowing to clients between its turns; and the
   * backlog from which one about to be parsed anyway (a reader waits, output went quiet) is cut
   * first. Through a 100 MB flood the scrollback file's rewrites wait for the mirror 7 times: cut
   * only past 1 MiB, it parsed 6 MB of the flood, cut from here on 4.6 MB (what is left is the
   * scrollback's worth each rewrite must parse).
   */
  private readonly sliceChars: number;
  /** The next spill's timer (see spillSoon). */
  private spillTimer: NodeJS.Timeout | undefined;
  private enqueued = 0;
  private applied = 0;
  private parsing = false;
  private queuedChars = 0;
  private disposed = false;
  private lastWriteAt = -Infinity;
  private quietTimer: NodeJS.Timeout | undefined;
  /** The backlog when a cut last found nothing to drop: the next looks once that much more came. */
  private uncutBacklog = 0;
  /** The column the output dropped last left the cursor at, set before the next parse. */
  private columnAfterCut: number | null = null;

  constructor(
    cols: number,
    rows: number,
    scrollbackLines: number,
    /** Called with the characters that left the backlog, parsed or dropped. */
    private readonly onParsed: (chars: number) => void = () => {},
    options: ScreenMirrorOptions = {},
  ) {
    this.terminal = new Terminal({ cols, rows, scrollback: scrollbackLines, allowProposedApi: true });
    this.terminal.loadAddon(this.serializer);
    // Erasing the scrollback (ED 3) and a full reset (RIS) erase the spilled part of it too.
    this.terminal.parser.registerCsiHandler({ final: 'J' }, (params) => {
      if (params[0] === 3 && this.terminal.buffer.active.type === 'normal') this.spilled.clear();
      return false;
    });
    this.terminal.parser.registerEscHandler({ final: 'c' }, () => {
      this.spilled.clear();
      return false;
    });
    this.farBehindChars = options.farBehindChars ?? FAR_BEHIND_CHARS;
    this.liveScrollbackRows = options.liveScrollbackRows ?? LIVE_SCROLLBACK_ROWS;
    this.spillEveryMs = options.spillEveryMs ?? SPILL_EVERY_MS;
    this.sliceChars = Math.min(Math.ceil(this.farBehindChars / 16), PARSE_SLICE_CHARS);
  }

  get cols(): number {
    return this.terminal.cols;
  }

  get rows(): number {
    return this.terminal.rows;
  }

  /** Rows the live terminal holds, its screen included; the rest of the scrollback is spilled. */
  get liveRows(): number {
    return this.terminal.buffer.normal.length;
  }

  /** Characters written but not parsed yet. */
  get backlog(): number {
    return this.queuedChars;
  }

  write(data: string): void {
    if (data.length === 0 || this.disposed) return;
    this.queuedChars += data.length;
    this.lastWriteAt = performance.now();
    this.enqueue({ kind: 'data', data });
  }

  /** Takes effect after everything written so far, as the PTY's own resize did. */
  resize(cols: number, rows: number): void {
    this.enqueue({ kind: 'resize', cols, rows });
  }

  setScrollbackLines(lines: number): void {
    this.terminal.options.scrollback = lines;
    this.spilled.keepAtMost(lines - this.terminal.buffer.normal.baseY);
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
    return this.afterWritten(() => this.rowsText(0, this.terminal.buffer.active.length, styled, this.terminal.buffer.active.type === 'normal'));
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
      data: serializeTerminal(this.terminal, this.serializer, this.spilled.serialized()),
      cols: this.terminal.cols,
      rows: this.terminal.rows,
    }));
  }

  dispose(): void {
    this.disposed = true;
    clearTimeout(this.quietTimer);
    clearTimeout(this.spillTimer);
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

  /** Applies queued ops in order, as far as it may now; a waiter runs the moment its point is reached. */
  private pump(): void {
    while (!this.parsing && !this.disposed) {
      this.runReachedWaiters();
      const op = this.queue[0];
      if (!op) return;
      if (op.kind === 'resize') {
        this.queue.shift();
        if (op.cols !== this.terminal.cols || op.rows !== this.terminal.rows) this.terminal.resize(op.cols, op.rows);
        this.dropSpilledPastScrollback();
        this.spillSoon();
        this.applied++;
        continue;
      }
      const parseDue = this.waiters.length > 0 || (this.queuedChars < this.farBehindChars && this.quiet());
      this.dropWhatPlainOutputPushesOut(parseDue ? this.sliceChars : this.farBehindChars);
      if (!parseDue && this.queuedChars < this.farBehindChars) return;
      this.parseSlice();
    }
  }

  private quiet(): boolean {
    const since = performance.now() - this.lastWriteAt;
    if (since >= QUIET_MS) return true;
    if (!this.quietTimer) {
      this.quietTimer = setTimeout(() => {
        this.quietTimer = undefined;
        this.pump();
      }, QUIET_MS - since);
      this.quietTimer.unref();
    }
    return false;
  }

  /** Hands xterm the next slice of output, up to the point the next waiter needs to see; consecutive writes parse as one. */
  private parseSlice(): void {
    const limit = Math.min(...this.waiters.map((waiter) => waiter.target), Infinity) - this.applied;
    const parts: string[] = this.columnAfterCut === null ? [] : [cursorToColumn(this.columnAfterCut, this.terminal.cols)];
    this.columnAfterCut = null;
    let chars = 0;
    let whole = 0;
    while (whole < limit && chars < this.sliceChars && this.queue[0]?.kind === 'data') {
      const op = this.queue[0];
      const room = this.sliceChars - chars;
      if (op.data.length <= room) {
        parts.push(op.data);
        chars += op.data.length;
        this.queue.shift();
        whole++;
        continue;
      }
      // Never between the two halves of a surrogate pair.
      const cut = isHighSurrogate(op.data.charCodeAt(room - 1)) ? room - 1 : room;
      parts.push(op.data.slice(0, cut));
      op.data = op.data.slice(cut);
      delete op.plain;
      chars += cut;
      break;
    }
    this.parsing = true;
    this.terminal.write(parts.length === 1 ? (parts[0] as string) : parts.join(''), () => {
      this.parsing = false;
      this.dropSpilledPastScrollback();
      this.spillSoon();
      this.applied += whole;
      this.queuedChars -= chars;
      this.onParsed(chars);
      this.pump();
    });
  }

  /**
   * Drops the writes at the head of a backlog of at least `atLeast` that plain output after them
   * would push out of the terminal anyway: once the cursor is at the bottom (a screen of lines at
   * most), a scrollback and a screen of lines more leave nothing before them. Plain output changes
   * nothing but cells and the cursor, so the terminal reads as if it had parsed them, once the
   * cursor is put at the column they left it at. Only writes before the next waiter's point and
   * the next resize are dropped, and only from a state where plain output does just that.
   */
  private dropWhatPlainOutputPushesOut(atLeast: number): void {
    if (this.queuedChars < atLeast || this.queuedChars < this.uncutBacklog + atLeast / 4) return;
    if (!this.plainOutputOnlyScrolls()) return;
    const cols = this.terminal.cols;
    const pushesOut = (this.terminal.options.scrollback ?? 0) + 2 * this.terminal.rows + 1;
    const limit = Math.min(...this.waiters.map((waiter) => waiter.target), Infinity) - this.applied;
    const writes: { lines: number; x: number }[] = [];
    let x = this.columnAfterCut ?? this.terminal.buffer.active.cursorX;
    for (const op of this.queue) {
      if (writes.length >= limit || op.kind !== 'data' || op.plain === false) break;
      if (op.plain?.from !== x) {
        const advance = plainAdvance(op.data, x, cols);
        op.plain = advance ? { from: x, ...advance } : false;
        if (!op.plain) break;
      }
      writes.push({ lines: op.plain.lines, x });
      x = op.plain.x;
    }
    let drop = 0;
    for (let i = writes.length - 1, after = 0; i > 0; i--) {
      after += (writes[i] as { lines: number }).lines;
      if (after >= pushesOut) {
        drop = i;
        break;
      }
    }
    if (drop === 0) {
      this.uncutBacklog = this.queuedChars;
      return;
    }
    let chars = 0;
    for (const op of this.queue.splice(0, drop)) chars += (op as { data: string }).data.length;
    this.applied += drop;
    this.queuedChars -= chars;
    this.uncutBacklog = 0;
    this.columnAfterCut = (writes[drop] as { x: number }).x;
    this.onParsed(chars);
  }

  /**
   * Past twice liveScrollbackRows of scrollback in the live terminal, spills its oldest rows,
   * liveScrollbackRows every spillEveryMs, between parses (the live terminal's own scrollback
   * bounds its rows meanwhile).
   */
  private spillSoon(): void {
    if (this.spillTimer || !this.spillDue()) return;
    this.spillTimer = setTimeout(() => {
      this.spillTimer = undefined;
      if (this.disposed || this.parsing) return;
      if (this.spill()) this.spillSoon();
    }, this.spillEveryMs);
    this.spillTimer.unref();
  }

  private spillDue(): boolean {
    return this.terminal.buffer.active.type === 'normal' && this.terminal.buffer.normal.baseY > 2 * this.liveScrollbackRows;
  }

  /**
   * Moves the live terminal's oldest rows to the spilled ones, liveScrollbackRows of them or a few
   * more to reach a line's start (fewer when the last line's start is nearer; exactly that many
   * inside a line with no start among them), keeping liveScrollbackRows live. Whether it spilled any.
   */
  private spill(): boolean {
    if (!this.spillDue()) return false;
    const buffer = this.terminal.buffer.normal;
    const most = buffer.baseY - this.liveScrollbackRows;
    const wrapped = (row: number) => buffer.getLine(row)?.isWrapped === true;
    const at = Math.min(most, this.liveScrollbackRows);
    let end = at;
    while (end < most && wrapped(end)) end++;
    if (wrapped(end)) for (end = at; end > 0 && wrapped(end); ) end--;
    // A line longer than the rows kept live has no start to cut at: it is cut where the spill ends, as xterm's own scrollback cuts it past its limit.
    if (end === 0) end = at;
    const live = (this.terminal as unknown as XtermInternals)._core?.buffer;
    const lines = live?.lines;
    if (end === 0 || !live || typeof live.ybase !== 'number' || typeof live.ydisp !== 'number' || typeof lines?.trimStart !== 'function' || typeof lines.maxLength !== 'number') return false;
    this.spilled.take(buffer, end);
    // What xterm's own erase of the scrollback (ED 3) does, for the first `end` rows.
    (lines as { trimStart(count: number): void }).trimStart(end);
    live.ybase = Math.max(live.ybase - end, 0);
    live.ydisp = Math.max(live.ydisp - end, 0);
    // The list's slots still hold the rows it let go: a list of another capacity copies only
    // the rows it has, so back at its own capacity it holds nothing more.
    const capacity = lines.maxLength;
    lines.maxLength = capacity + 1;
    lines.maxLength = capacity;
    this.dropSpilledPastScrollback();
    return true;
  }

  /**
   * Lets the spilled rows go that the scrollback has no room for beside the live ones: the terminal
   * trims its own past the scrollback, and the spilled rows are older than any it keeps. Done after
   * every parse, before anything reads the mirror, so the two never leave a gap between them.
   */
  private dropSpilledPastScrollback(): void {
    this.spilled.keepAtMost((this.terminal.options.scrollback ?? 0) - this.terminal.buffer.normal.baseY);
  }

  /** Plain output from here only writes cells and moves the cursor down, scrolling the whole screen at its bottom. */
  private plainOutputOnlyScrolls(): boolean {
    const core = (this.terminal as unknown as XtermInternals)._core;
    const { modes, options, rows } = this.terminal;
    return (
      core?._inputHandler?._parser?.currentState === 0 &&
      core.buffer?.scrollTop === 0 &&
      core.buffer.scrollBottom === rows - 1 &&
      modes.wraparoundMode &&
      !modes.insertMode &&
      options.convertEol !== true
    );
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

  /** Rows `[first, first + count)` of the active buffer as text, after the spilled rows `withSpilled`. */
  private rowsText(first: number, count: number, styled = false, withSpilled = false): string {
    const buffer = this.terminal.buffer.active;
    const cell = buffer.getNullCell();
    const end = Math.min(first + count, buffer.length);
    const lines: string[] = [];
    for (const { text, wrapped } of withSpilled ? this.spilled.texts(styled) : []) {
      if (wrapped && lines.length > 0) lines[lines.length - 1] += text;
      else lines.push(text);
    }
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

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}
