import { describe, expect, it, vi } from 'vitest';
import { FLOW_CONTROL, SentChunks, TerminalStream } from './terminalStream';

function fakePty() {
  const calls: string[] = [];
  return { calls, pause: () => calls.push('pause'), resume: () => calls.push('resume') };
}

/** Runs `test` with the batch and stall timers and performance.now() on a clock the test moves. */
function onFakeClock(test: () => void): void {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
  try {
    test();
  } finally {
    vi.useRealTimers();
  }
}

describe('TerminalStream flow control', () => {
  it('sends output after a quiet spell at once, batches what follows, and sends a full batch at once', () =>
    onFakeClock(() => {
      const stream = new TerminalStream();
      const sent: string[] = [];
      stream.attach({ send: (data) => sent.push(data) });
      stream.push('a');
      expect(sent).toEqual(['a']);
      vi.advanceTimersByTime(1);
      stream.push('b');
      stream.push('c');
      expect(sent).toEqual(['a']);
      vi.advanceTimersByTime(FLOW_CONTROL.batchMs);
      expect(sent).toEqual(['a', 'bc']);
      stream.push('d');
      stream.push('x'.repeat(FLOW_CONTROL.maxBatchChars));
      expect(sent).toHaveLength(3);
      vi.advanceTimersByTime(FLOW_CONTROL.batchMs * 2);
      stream.push('after a quiet spell');
      expect(sent.at(-1)).toBe('after a quiet spell');
    }));

  it('sends the first output after input at once, even while a batch of earlier output waits', () =>
    onFakeClock(() => {
      const stream = new TerminalStream();
      const sent: string[] = [];
      stream.attach({ send: (data) => sent.push(data) });
      stream.push('prompt$ ');
      vi.advanceTimersByTime(1);
      stream.push('status line');
      expect(sent).toEqual(['prompt$ ']);
      stream.inputSent();
      expect(sent).toEqual(['prompt$ ', 'status line']);
      stream.push('x');
      expect(sent).toEqual(['prompt$ ', 'status line', 'x']);
      stream.push('more');
      expect(sent).toHaveLength(3);
      vi.advanceTimersByTime(FLOW_CONTROL.batchMs);
      expect(sent.at(-1)).toBe('more');
    }));

  it('pauses the PTY above the high watermark and resumes only below the low one', () => {
    const pty = fakePty();
    const stream = new TerminalStream();
    stream.connect(pty);
    const client = stream.attach({ send: () => {} });
    stream.push('x'.repeat(FLOW_CONTROL.highWatermark + 1));
    stream.flush();
    expect(pty.calls).toEqual(['pause']);
    client.acknowledge(FLOW_CONTROL.highWatermark + 1 - FLOW_CONTROL.lowWatermark);
    expect(pty.calls).toEqual(['pause']);
    client.acknowledge(1);
    expect(pty.calls).toEqual(['pause', 'resume']);
  });

  it('resumes the PTY while a client still has half the window to write, so the PTY never waits for it to drain', () => {
    const pty = fakePty();
    const stream = new TerminalStream();
    stream.connect(pty);
    const client = stream.attach({ send: () => {} });
    stream.push('x'.repeat(FLOW_CONTROL.highWatermark + 1));
    stream.flush();
    client.acknowledge(FLOW_CONTROL.highWatermark / 2 + 2);
    expect(pty.calls).toEqual(['pause', 'resume']);
  });

  it('follows the slowest client, and a client that leaves no longer holds the PTY back', () => {
    const pty = fakePty();
    const stream = new TerminalStream();
    stream.connect(pty);
    const fast = stream.attach({ send: (data) => fast.acknowledge(data.length) });
    const slow = stream.attach({ send: () => {} });
    stream.push('y'.repeat(FLOW_CONTROL.highWatermark + 10));
    stream.flush();
    expect(stream.isPaused).toBe(true);
    slow.detach();
    expect(pty.calls).toEqual(['pause', 'resume']);
  });

  it('leaves behind a client that stops acknowledging, never the mirror, and tells it where the stream is when it comes back', () =>
    onFakeClock(() => {
      const pty = fakePty();
      const stream = new TerminalStream();
      stream.connect(pty);
      const toStalled: [string, number][] = [];
      const stalled = stream.attach({ send: (data, at) => toStalled.push([data, at]) });
      const mirror = stream.attach({ send: () => {} }, { neverStalls: true });
      const flood = 'z'.repeat(FLOW_CONTROL.highWatermark + 1);
      stream.push(flood);
      stream.flush();
      expect(pty.calls).toEqual(['pause']);
      mirror.acknowledge(flood.length);
      vi.advanceTimersByTime(FLOW_CONTROL.stallMs - 1);
      expect(pty.calls).toEqual(['pause']);
      vi.advanceTimersByTime(1);
      expect(pty.calls).toEqual(['pause', 'resume']);
      // Left behind: sent nothing more, and the PTY no longer waits for it.
      stream.push(flood);
      stream.flush();
      expect(toStalled.map(([data, at]) => [data.length, at])).toEqual([[flood.length, 0]]);
      expect(pty.calls).toEqual(['pause', 'resume', 'pause']);
      mirror.acknowledge(flood.length);
      expect(pty.calls).toEqual(['pause', 'resume', 'pause', 'resume']);
      // It comes back: an empty chunk at the stream's end, past what it has, once.
      stalled.acknowledge(5_000);
      stalled.acknowledge(5_000);
      expect(toStalled.map(([data, at]) => [data, at])).toEqual([
        [flood, 0],
        ['', 2 * flood.length],
      ]);

      // The mirror never stalls: it paces however long it takes.
      const lone = new TerminalStream();
      const lonePty = fakePty();
      lone.connect(lonePty);
      const slowMirror = lone.attach({ send: () => {} }, { neverStalls: true });
      lone.push(flood);
      lone.flush();
      vi.advanceTimersByTime(FLOW_CONTROL.stallMs * 3);
      expect(lonePty.calls).toEqual(['pause']);
      slowMirror.acknowledge(flood.length);
      expect(lonePty.calls).toEqual(['pause', 'resume']);
    }));

  it('leaves behind a client that stops while it catches up, between the low and the high watermark', () =>
    onFakeClock(() => {
      const pty = fakePty();
      const stream = new TerminalStream();
      stream.connect(pty);
      const client = stream.attach({ send: () => {} });
      stream.push('w'.repeat(FLOW_CONTROL.highWatermark + 1));
      stream.flush();
      vi.advanceTimersByTime(FLOW_CONTROL.stallMs - 1);
      // It drains half of it, which is not enough for the PTY to resume, and stops there.
      client.acknowledge(FLOW_CONTROL.highWatermark / 2);
      vi.advanceTimersByTime(FLOW_CONTROL.stallMs - 1);
      expect(pty.calls).toEqual(['pause']);
      vi.advanceTimersByTime(1);
      expect(pty.calls).toEqual(['pause', 'resume']);
      stream.push('next');
      stream.flush();
      expect(pty.calls).toEqual(['pause', 'resume']);
    }));

  it('lets a client that was left behind but missed nothing pace again when it acknowledges', () =>
    onFakeClock(() => {
      const pty = fakePty();
      const stream = new TerminalStream();
      stream.connect(pty);
      const sent: string[] = [];
      const client = stream.attach({ send: (data) => sent.push(data) });
      stream.push('q'.repeat(FLOW_CONTROL.highWatermark + 1));
      stream.flush();
      vi.advanceTimersByTime(FLOW_CONTROL.stallMs);
      expect(pty.calls).toEqual(['pause', 'resume']);
      client.acknowledge(FLOW_CONTROL.highWatermark + 1);
      stream.push('next');
      stream.flush();
      expect(sent.slice(1)).toEqual(['next']);
    }));

  it('hands its clients over to the next session of the agent', () => {
    const first = fakePty();
    const second = fakePty();
    const stream = new TerminalStream();
    const sent: string[] = [];
    stream.attach({ send: (data) => sent.push(data) });
    stream.connect(first);
    stream.push('old');
    stream.connect(second);
    stream.push('new');
    stream.flush();
    expect(sent).toEqual(['old', 'new']);
  });
});

describe('SentChunks', () => {
  it('turns the bytes a client acknowledges into the characters the stream counts', () => {
    const sent = new SentChunks();
    sent.sent('abc');
    sent.sent('\u00e9\u00e9');
    sent.sent('\u{1F600}');
    expect(sent.charsIn(3 + 4)).toBe(5);
    expect(sent.charsIn(2)).toBe(1);
    expect(sent.charsIn(2)).toBe(1);
    expect(sent.charsIn(100)).toBe(0);
  });
});
