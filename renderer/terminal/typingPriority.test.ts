import { describe, expect, it } from 'vitest';
import type { TerminalScreen, TerminalSize } from './agentTerminalLink';
import { TypingPriority, type FrameClock, type PaneStream } from './typingPriority';

/** A clock whose time, frames and timers the test moves on. */
class TestClock implements FrameClock {
  time = 0;
  private frames: (() => void)[] = [];
  private timers: { at: number; run: () => void }[] = [];
  now(): number {
    return this.time;
  }
  nextFrame(run: () => void): void {
    this.frames.push(run);
  }
  after(ms: number, run: () => void): void {
    this.timers.push({ at: this.time + ms, run });
  }
  frame(): void {
    this.frames.splice(0).forEach((run) => run());
  }
  /** Moves the time on to `time`, running the timers due by then. */
  advanceTo(time: number): void {
    this.time = time;
    const due = this.timers.filter((timer) => timer.at <= time);
    this.timers = this.timers.filter((timer) => timer.at > time);
    due.forEach((timer) => timer.run());
  }
  get framesAsked(): number {
    return this.frames.length;
  }
}

/** What a screen was given, in order: the bytes written (as text), a parsed callback's name, a restore. */
class RecordingScreen implements TerminalScreen {
  readonly log: string[] = [];
  private readonly decoder = new TextDecoder();
  size(): TerminalSize {
    return { cols: 80, rows: 24 };
  }
  restore(snapshot: string): void {
    this.log.push(`restore:${snapshot}`);
  }
  write(data: Uint8Array, onParsed?: () => void): void {
    this.log.push(this.decoder.decode(data));
    onParsed?.();
  }
  get text(): string {
    return this.log.filter((entry) => !entry.includes(':')).join('');
  }
}

/** What the priority did to a pane's stream, in order. */
class RecordingStream implements PaneStream {
  readonly log: string[] = [];
  /** The person reads back in the pane's scrollback. */
  readingBack = false;
  mayPause(): boolean {
    return !this.readingBack;
  }
  pause(): void {
    this.log.push('pause');
  }
  resume(): void {
    this.log.push('resume');
  }
}

const bytes = (text: string) => new TextEncoder().encode(text);
const KIB = 1024;

function twoPanes() {
  const clock = new TestClock();
  const priority = new TypingPriority(clock);
  const typedInto = { name: 'typed into' };
  const flooding = { name: 'flooding' };
  const typedScreen = new RecordingScreen();
  const floodScreen = new RecordingScreen();
  const floodStream = new RecordingStream();
  return {
    clock,
    priority,
    typedInto,
    typedScreen,
    floodScreen,
    floodStream,
    typed: priority.screenOf(typedInto, typedScreen, new RecordingStream()),
    flood: priority.screenOf(flooding, floodScreen, floodStream),
    flooding,
  };
}

/** Two panes, the flooding one paused: a key (and its echo) into the other, and 100 KiB more than its turn takes. */
function floodPaused() {
  const panes = twoPanes();
  panes.priority.typed(panes.typedInto);
  panes.typed.write(bytes('x'));
  panes.flood.write(bytes('a'.repeat(100 * KIB)));
  Array.from({ length: 4 }, () => panes.clock.frame());
  expect(panes.floodStream.log).toEqual(['pause']);
  return panes;
}

describe('TypingPriority', () => {
  it('writes every pane at once while nobody types', () => {
    const { flood, floodScreen, clock } = twoPanes();
    flood.write(bytes('a'.repeat(100 * KIB)));
    expect(floodScreen.text).toHaveLength(100 * KIB);
    expect(clock.framesAsked).toBe(0);
  });

  it('writes the pane typed into at once, and the others up to 64 KiB every fourth frame, in order, with each parsed callback after its last byte', () => {
    const { priority, typedInto, typed, typedScreen, flood, floodScreen, floodStream, clock } = twoPanes();
    priority.typed(typedInto);
    const parsed: string[] = [];
    flood.write(bytes('a'.repeat(40 * KIB)), () => parsed.push('a'));
    flood.write(bytes('b'.repeat(20 * KIB)), () => parsed.push('b'));
    typed.write(bytes('x'));
    expect(typedScreen.text).toBe('x');
    expect(floodScreen.text).toBe('');

    const frames = (count: number) => Array.from({ length: count }, () => clock.frame());
    frames(3);
    expect(floodScreen.text).toBe('');
    frames(1);
    expect(floodScreen.text).toBe(`${'a'.repeat(40 * KIB)}${'b'.repeat(20 * KIB)}`);
    expect(parsed).toEqual(['a', 'b']);
    flood.write(bytes('c'.repeat(10 * KIB)), () => parsed.push('c'));
    frames(4);
    expect(floodScreen.text.endsWith('c'.repeat(10 * KIB))).toBe(true);
    expect(parsed).toEqual(['a', 'b', 'c']);
    expect(floodStream.log).toEqual([]);
    expect(clock.framesAsked).toBe(0);
  });

  it('pauses the stream of a pane whose output outruns its turns, dropping what it held, and resumes it a second after the last key', () => {
    const { priority, typedInto, typed, flood, floodScreen, floodStream, clock } = twoPanes();
    priority.typed(typedInto);
    typed.write(bytes('x'));
    const parsed: string[] = [];
    flood.write(bytes('a'.repeat(80 * KIB)), () => parsed.push('a'));
    flood.write(bytes('b'.repeat(80 * KIB)), () => parsed.push('b'));
    Array.from({ length: 4 }, () => clock.frame());
    expect(floodScreen.text).toBe('a'.repeat(64 * KIB));
    expect(floodStream.log).toEqual(['pause']);
    expect(clock.framesAsked).toBe(0);
    clock.advanceTo(500);
    priority.typed(typedInto);
    clock.advanceTo(1000);
    expect(floodStream.log).toEqual(['pause']);
    expect(parsed).toEqual([]);
    clock.advanceTo(1500);
    expect(floodStream.log).toEqual(['pause', 'resume']);
    // The resume's snapshot, then its stream, go in as any pane's while nobody types.
    flood.restore('snapshot', { cols: 80, rows: 24 }, () => undefined);
    flood.write(bytes('after'));
    expect(floodScreen.log.slice(-2)).toEqual(['restore:snapshot', 'after']);
    expect(clock.framesAsked).toBe(0);
  });

  it('runs a paused pane again at once when the person types into it', () => {
    const { priority, flooding, floodStream, clock } = floodPaused();
    clock.advanceTo(200);
    priority.typed(flooding);
    expect(floodStream.log).toEqual(['pause', 'resume']);
    clock.advanceTo(2000);
    expect(floodStream.log).toEqual(['pause', 'resume']);
  });

  it('never pauses a pane the person reads back in: it keeps its turns', () => {
    const { priority, typedInto, typed, flood, floodScreen, floodStream, clock } = twoPanes();
    floodStream.readingBack = true;
    priority.typed(typedInto);
    typed.write(bytes('x'));
    flood.write(bytes('a'.repeat(100 * KIB)));
    Array.from({ length: 8 }, () => clock.frame());
    expect(floodScreen.text).toBe('a'.repeat(100 * KIB));
    expect(floodStream.log).toEqual([]);
  });

  it('runs a paused stream again when its pane is restored by another attach (a reconnect)', () => {
    const { flood, floodScreen, floodStream, clock } = floodPaused();
    flood.restore('snapshot', { cols: 80, rows: 24 }, () => undefined);
    flood.write(bytes('b'.repeat(10 * KIB)));
    Array.from({ length: 4 }, () => clock.frame());
    expect(floodScreen.text.endsWith('b'.repeat(10 * KIB))).toBe(true);
    clock.advanceTo(1000);
    expect(floodStream.log).toEqual(['pause']);
  });

  it("skips the others' turn between a key and its echo, and takes it in the first frame after the echo", () => {
    const { priority, typedInto, typed, flood, floodScreen, clock } = twoPanes();
    priority.typed(typedInto);
    flood.write(bytes('a'.repeat(100 * KIB)));
    Array.from({ length: 6 }, () => clock.frame());
    expect(floodScreen.text).toBe('');
    typed.write(bytes('x'));
    clock.frame();
    expect(floodScreen.text).toBe('a'.repeat(64 * KIB));
  });

  it('takes the turn of the others anyway once a key went 100 ms without an echo', () => {
    const { priority, typedInto, flood, floodScreen, clock } = twoPanes();
    priority.typed(typedInto);
    flood.write(bytes('a'.repeat(100 * KIB)));
    Array.from({ length: 4 }, () => clock.frame());
    expect(floodScreen.text).toBe('');
    clock.time = 100;
    clock.frame();
    expect(floodScreen.text).toBe('a'.repeat(64 * KIB));
  });

  it('keeps later output behind what is held, and lets it all through a second after the last key', () => {
    const { priority, typedInto, typed, flood, floodScreen, clock } = twoPanes();
    priority.typed(typedInto);
    typed.write(bytes('x'));
    flood.write(bytes('a'.repeat(40 * KIB)));
    Array.from({ length: 3 }, () => clock.frame());
    clock.time = 1000;
    flood.write(bytes('b'));
    expect(floodScreen.text).toBe('');
    clock.frame();
    expect(floodScreen.text).toBe(`${'a'.repeat(40 * KIB)}b`);
    flood.write(bytes('c'));
    expect(floodScreen.text.endsWith('bc')).toBe(true);
  });

  it('writes what a pane held before a snapshot that restores it', () => {
    const { priority, typedInto, flood, floodScreen } = twoPanes();
    priority.typed(typedInto);
    flood.write(bytes('old'));
    flood.restore('snapshot', { cols: 80, rows: 24 }, () => undefined);
    flood.write(bytes('new'));
    expect(floodScreen.log).toEqual(['old', 'restore:snapshot']);
  });

  it('gives the priority to the pane typed into last', () => {
    const { priority, typedInto, typed, typedScreen, flooding, flood, floodScreen } = twoPanes();
    priority.typed(typedInto);
    priority.typed(flooding);
    flood.write(bytes('y'));
    typed.write(bytes('z'));
    expect(floodScreen.text).toBe('y');
    expect(typedScreen.text).toBe('');
  });

  it('forgets what a closed pane held', () => {
    const { priority, typedInto, flood, floodScreen, clock } = twoPanes();
    priority.typed(typedInto);
    flood.write(bytes('gone'));
    flood.dispose();
    clock.frame();
    expect(floodScreen.text).toBe('');
    expect(clock.framesAsked).toBe(0);
  });
});
