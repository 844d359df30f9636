import type { TerminalScreen } from './agentTerminalLink';

/** How long after a key its pane keeps the priority: the gaps of someone typing. */
const TYPING_MS = 1000;
/**
 * While another pane is typed into, a pane writes its output to its xterm once every
 * BACKGROUND_FRAMES frames, BACKGROUND_BYTES at most: a flood's parse is then a small part of a
 * frame, and its redraw (a whole screen of DOM rows, the larger part: 8 ms a frame in a trace of
 * the bench on a loaded machine) is left out of three frames in four, so the echo of a key lands
 * in the next one.
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

/** What the priority needs of the page: its clock and its frames (a test gives its own). */
export interface FrameClock {
  now(): number;
  nextFrame(run: () => void): void;
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
};

/**
 * Shares the page's main thread between its terminal panes: the pane typed into last writes its
 * output at once, the others a little every few frames until a second passes
 * without a key. A pane flooding beside the one a person types into would otherwise fill each
 * frame with its parse and redraw, and the echo of a key would wait frames for its turn. Held
 * output is acknowledged once it is parsed, as any, so the host holds back the rest meanwhile.
 */
export class TypingPriority {
  private typedPane: object | null = null;
  private typedAt = Number.NEGATIVE_INFINITY;
  private readonly held = new Map<object, { screen: TerminalScreen; chunks: Held[] }>();
  private frameAsked = false;
  /** Frames since the others' last turn. */
  private frames = 0;
  /** A key was typed into the typed pane and no output came from it since. */
  private echoAwaited = false;

  constructor(private readonly clock: FrameClock = pageClock) {}

  /** A key was typed into `pane`. */
  typed(pane: object): void {
    this.typedPane = pane;
    this.typedAt = this.clock.now();
    this.echoAwaited = true;
  }

  /** `screen` as `pane`'s: its live output held back while another pane is typed into. */
  screenOf(pane: object, screen: TerminalScreen): TerminalScreen & { dispose(): void } {
    return {
      size: () => screen.size(),
      // What was held is older than the snapshot: written first, as xtermScreen orders its restore.
      restore: (snapshot, size, onRestored) => {
        this.release(pane, Number.POSITIVE_INFINITY);
        screen.restore(snapshot, size, onRestored);
      },
      write: (data, onParsed) => {
        const entry = this.held.get(pane);
        if (pane === this.typedPane) this.echoAwaited = false;
        if (!entry && !this.othersTyped(pane)) return screen.write(data, onParsed);
        if (entry) entry.chunks.push({ data, onParsed });
        else this.held.set(pane, { screen, chunks: [{ data, onParsed }] });
        this.askFrame();
      },
      dispose: () => void this.held.delete(pane),
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
        else if (backgroundTurn) this.release(pane, BACKGROUND_BYTES);
      }
      if (this.held.size > 0) this.askFrame();
    });
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
