import type { TerminalScreen } from './agentTerminalLink';

/** How long after a key its pane keeps the priority: the gaps of someone typing. */
const TYPING_MS = 1000;
/**
 * While another pane is typed into, a pane writes its output to its xterm once every
 * BACKGROUND_FRAMES frames, BACKGROUND_BYTES at most: a flood's parse is then a small part of a
 * frame, and its redraw (a whole screen of DOM rows, the larger part: 8 ms a frame in a trace of
 * the bench on a loaded machine) is left out of three frames in four, so the echo of a key lands
 * in the next one. A pane whose output outruns its turns (a flood) is paused instead, see PaneStream.
 */
const BACKGROUND_FRAMES = 4;
const BACKGROUND_BYTES = 64 * 1024;
/**
 * Between a key and its echo the others write nothing, not even on their turn: their parse (a task
 * the echo's socket message waits behind) and their redraw (in the frame that would draw the echo)
 * are the wait the echo of a key beside a flood met most. A key that is not echoed (a password, a
 * busy program) holds them this long at most.
 */
const ECHO_WAIT_MS = 100;

interface Held {
  data: Uint8Array;
  onParsed: (() => void) | undefined;
}

/**
 * A pane's stream from the host. Paused, the host sends the page none of it and its PTY no longer
 * waits for the page; resumed, the pane attaches again, a fresh snapshot bringing it up to date.
 * A flood's chunks on the page's one socket came between a key and its echo (the echo's frame from
 * the host to the page took 9 ms at the median, 27 at p99, in the bench), and its parse and redraw
 * filled the page's frames: paused, the echo came in 2 ms.
 */
export interface PaneStream {
  pause(): void;
  resume(): void;
  /** False while the person reads back in the pane's scrollback: a resume's snapshot would take them to its end. */
  mayPause(): boolean;
}

/** What the priority needs of the page: its clock, its frames and its timers (a test gives its own). */
export interface FrameClock {
  now(): number;
  nextFrame(run: () => void): void;
  after(ms: number, run: () => void): void;
}

/** A hidden page draws no frames: held output then goes on a timer (which such a page runs seldom, but runs). */
const HIDDEN_PAGE_FRAME_MS = 100;

const pageClock: FrameClock = {
  now: () => performance.now(),
  nextFrame: (run) => {
    const once = () => {
      cancelAnimationFrame(frame);
      clearTimeout(timer);
      run();
    };
    const frame = requestAnimationFrame(once);
    const timer = setTimeout(once, HIDDEN_PAGE_FRAME_MS);
  },
  after: (ms, run) => void setTimeout(run, ms),
};

/**
 * Shares the page's main thread between its terminal panes: the pane typed into last writes its
 * output at once, the others a little every few frames until a second passes without a key, and one
 * whose output comes faster than that is paused until then (see PaneStream). A pane flooding beside
 * the one a person types into would otherwise fill each frame with its parse and redraw, and the
 * echo of a key would wait frames for its turn. Held output is acknowledged once it is parsed, as
 * any, so the host holds back the rest meanwhile.
 */
export class TypingPriority {
  private typedPane: object | null = null;
  private typedAt = Number.NEGATIVE_INFINITY;
  private readonly held = new Map<object, { screen: TerminalScreen; stream: PaneStream; chunks: Held[] }>();
  /** Panes whose output outran their turns while another was typed into: resumed once it is not. */
  private readonly paused = new Map<object, PaneStream>();
  /**
   * Paused panes wait on a timer, not on frames: a frame asked for every frame would keep one
   * pending at each key, and Chromium holds the page's tasks (the echo's message among them) after
   * a key until a pending frame is drawn.
   */
  private resumeTimerSet = false;
  private frameAsked = false;
  /** Frames since the others' last turn. */
  private frames = 0;
  /** A key was typed into the typed pane and no output came from it since. */
  private echoAwaited = false;

  constructor(private readonly clock: FrameClock = pageClock) {}

  /** A key was typed into `pane`: if it was paused, it runs again at once (its echo must show). */
  typed(pane: object): void {
    this.typedPane = pane;
    this.typedAt = this.clock.now();
    this.echoAwaited = true;
    this.resume(pane);
  }

  /**
   * `screen` as `pane`'s: its live output held back while another pane is typed into, and `stream`
   * paused while its output outruns what it is let write meanwhile.
   */
  screenOf(pane: object, screen: TerminalScreen, stream: PaneStream): TerminalScreen & { dispose(): void } {
    return {
      size: () => screen.size(),
      // What was held is older than the snapshot: written first, as xtermScreen orders its restore.
      // A restore also means the stream was attached again (a resume, a reconnect): it runs.
      restore: (snapshot, size, onRestored) => {
        this.paused.delete(pane);
        this.release(pane, Number.POSITIVE_INFINITY);
        screen.restore(snapshot, size, onRestored);
      },
      write: (data, onParsed) => {
        const entry = this.held.get(pane);
        if (pane === this.typedPane) this.echoAwaited = false;
        if (!entry && !this.othersTyped(pane)) return screen.write(data, onParsed);
        if (entry) entry.chunks.push({ data, onParsed });
        else this.held.set(pane, { screen, stream, chunks: [{ data, onParsed }] });
        this.askFrame();
      },
      dispose: () => {
        this.held.delete(pane);
        this.paused.delete(pane);
      },
    };
  }

  private othersTyped(pane: object): boolean {
    return this.typedPane !== null && this.typedPane !== pane && this.clock.now() - this.typedAt < TYPING_MS;
  }

  private echoPending(): boolean {
    return this.echoAwaited && this.clock.now() - this.typedAt < ECHO_WAIT_MS;
  }

  private askFrame(): void {
    if (this.frameAsked) return;
    this.frameAsked = true;
    this.clock.nextFrame(() => {
      this.frameAsked = false;
      const backgroundTurn = ++this.frames >= BACKGROUND_FRAMES && !this.echoPending();
      if (backgroundTurn) this.frames = 0;
      for (const pane of [...this.held.keys()]) {
        if (!this.othersTyped(pane)) this.release(pane, Number.POSITIVE_INFINITY);
        else if (backgroundTurn) this.takeTurn(pane);
      }
      if (this.held.size > 0) this.askFrame();
    });
  }

  /**
   * A background turn: BACKGROUND_BYTES of the pane's held output. Output left over came faster than
   * its turns take it: the pane's stream is paused and what it held dropped (the snapshot of its
   * resume has it).
   */
  private takeTurn(pane: object): void {
    this.release(pane, BACKGROUND_BYTES);
    const entry = this.held.get(pane);
    if (!entry || !entry.stream.mayPause()) return;
    this.held.delete(pane);
    this.paused.set(pane, entry.stream);
    entry.stream.pause();
    this.resumeOnceTypingStops();
  }

  private resumeOnceTypingStops(): void {
    if (this.resumeTimerSet) return;
    this.resumeTimerSet = true;
    this.clock.after(Math.max(0, this.typedAt + TYPING_MS - this.clock.now()), () => {
      this.resumeTimerSet = false;
      for (const pane of [...this.paused.keys()]) if (!this.othersTyped(pane)) this.resume(pane);
      if (this.paused.size > 0) this.resumeOnceTypingStops();
    });
  }

  /** A paused pane's stream attaches again (nothing happens to one that is not paused). */
  private resume(pane: object): void {
    const stream = this.paused.get(pane);
    if (!stream) return;
    this.paused.delete(pane);
    stream.resume();
  }

  /**
   * Writes `pane`'s held output, oldest first, `budget` bytes of it at most (xterm decodes UTF-8 across
   * writes, so a chunk may be cut anywhere); a chunk's onParsed goes with its last piece.
   */
  private release(pane: object, budget: number): void {
    const entry = this.held.get(pane);
    if (!entry) return;
    let left = budget;
    while (entry.chunks.length > 0 && left > 0) {
      const next = entry.chunks[0] as Held;
      if (next.data.byteLength > left) {
        entry.screen.write(next.data.subarray(0, left));
        next.data = next.data.subarray(left);
        break;
      }
      entry.chunks.shift();
      left -= next.data.byteLength;
      entry.screen.write(next.data, next.onParsed);
    }
    if (entry.chunks.length === 0) this.held.delete(pane);
  }
}

/** The page's one priority, shared by all its panes. */
export const typingPriority = new TypingPriority();
