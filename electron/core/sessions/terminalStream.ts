/**
 * Flow control for one agent terminal, modelled on VS Code's: output is batched (every 5 ms, or at
 * once past 64 KiB), each client acknowledges what it has written, and the PTY is paused while any
 * client has more than 100,000 characters unacknowledged. It resumes once all are below 50,000, not
 * VS Code's 5,000: a page behind a WebSocket (another process, a busy machine) answers late, and
 * waiting for it to drain nearly all it was sent left the PTY and the page idle by turns through a
 * flood. The 100,000 still bound what a client holds (and what a keystroke's echo waits behind). Output
 * after a quiet spell, or the first after input was sent to the PTY (a keystroke's echo), goes at
 * once: only what follows it within 5 ms waits.
 * Only live clients pace the PTY: one that holds it back and has acknowledged nothing for `stallMs`
 * (a hung page, a tab paused in the debugger) is left behind (see TerminalStream).
 */
export const FLOW_CONTROL = {
  batchMs: 5,
  maxBatchChars: 64 * 1024,
  highWatermark: 100_000,
  lowWatermark: 50_000,
  stallMs: 5_000,
} as const;

export interface FlowSource {
  pause(): void;
  resume(): void;
}

export interface TerminalSink {
  /**
   * `at`: where `data` starts in the stream, in UTF-8 bytes. Empty `data` past the end of what the
   * sink was sent says it was left behind and missed what lies between: it must attach again.
   */
  send(data: string, at: number): void;
}

export interface AttachOptions {
  /** Paces the PTY however long it takes to acknowledge (the host's own mirror, which always catches up). */
  neverStalls?: boolean;
}

export interface StreamAttachment {
  /** Where this attachment's first chunk starts: everything before it was sent to others. */
  at: number;
  acknowledge(chars: number): void;
  detach(): void;
}

interface Attachment {
  sink: TerminalSink;
  unacknowledged: number;
  /** performance.now() of its last acknowledgement (or of the attach). */
  acknowledgedAt: number;
  neverStalls: boolean;
  /** Where it was left behind: from there on it is sent nothing and paces nothing. */
  leftAt: number | null;
  /** It acknowledged after it was left behind, and was told where the stream is. */
  told: boolean;
}

/**
 * One agent terminal's output on its way to its clients (and the host's mirror), with flow control.
 * A client that holds the PTY back (see holdsBack) and acknowledged nothing for `stallMs` is left
 * behind: the PTY no longer waits for it and it is sent nothing more. When it acknowledges again
 * (it came back), it is sent an empty chunk at the stream's position, past the end of what it has:
 * seeing the gap, it attaches again and gets a snapshot, then the stream from where that ends, as
 * any attach does.
 */
export class TerminalStream {
  private readonly attachments = new Map<number, Attachment>();
  private stallTimer: NodeJS.Timeout | undefined;
  private nextAttachmentId = 1;
  // Chunks joined once per batch: appending to a string builds a rope that costs twice as much to send.
  private pending: string[] = [];
  private pendingChars = 0;
  private timer: NodeJS.Timeout | undefined;
  private paused = false;
  private source: FlowSource | null = null;
  private lastSentAt = -Infinity;
  /** UTF-8 bytes sent so far: where the next chunk starts. */
  private sentBytes = 0;

  /** The PTY whose output this is now; the stream and its clients outlive each session. */
  connect(source: FlowSource | null): void {
    this.flush();
    if (this.paused) this.source?.resume();
    this.paused = false;
    this.source = source;
    this.updatePause();
  }

  push(data: string): void {
    this.pending.push(data);
    this.pendingChars += data.length;
    if (this.timer) {
      if (this.pendingChars >= FLOW_CONTROL.maxBatchChars) this.flush();
      return;
    }
    const sinceSent = performance.now() - this.lastSentAt;
    if (sinceSent >= FLOW_CONTROL.batchMs || this.pendingChars >= FLOW_CONTROL.maxBatchChars) this.flush();
    else this.timer = setTimeout(() => this.flush(), FLOW_CONTROL.batchMs - sinceSent);
  }

  constructor(private readonly stallMs: number = FLOW_CONTROL.stallMs) {}

  /** Input went to the PTY: its echo must not wait for a batch that began before the key. */
  inputSent(): void {
    this.flush();
    this.lastSentAt = -Infinity;
  }

  /** The sink also gets what was pushed but not sent yet: flush first to start after it. */
  attach(sink: TerminalSink, options: AttachOptions = {}): StreamAttachment {
    const id = this.nextAttachmentId++;
    this.attachments.set(id, { sink, unacknowledged: 0, acknowledgedAt: performance.now(), neverStalls: options.neverStalls ?? false, leftAt: null, told: false });
    return {
      at: this.sentBytes,
      acknowledge: (chars) => {
        const attachment = this.attachments.get(id);
        if (!attachment) return;
        attachment.unacknowledged = Math.max(0, attachment.unacknowledged - chars);
        attachment.acknowledgedAt = performance.now();
        if (attachment.leftAt !== null) this.cameBack(attachment);
        this.updatePause();
      },
      detach: () => {
        this.attachments.delete(id);
        this.updatePause();
      },
    };
  }

  get isPaused(): boolean {
    return this.paused;
  }

  /** Sends what is pending now (before the PTY's exit is announced, so nothing trails it). */
  flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.pendingChars === 0) return;
    const data = this.pending.join('');
    this.pending = [];
    this.pendingChars = 0;
    this.lastSentAt = performance.now();
    const at = this.sentBytes;
    this.sentBytes += Buffer.byteLength(data);
    for (const attachment of this.attachments.values()) {
      if (attachment.leftAt !== null) continue;
      attachment.unacknowledged += data.length;
      attachment.sink.send(data, at);
    }
    this.updatePause();
  }

  /**
   * A client left behind acknowledged again. If it missed nothing it simply paces again; otherwise
   * it is told (once) where the stream is, and stays out until it attaches again.
   */
  private cameBack(attachment: Attachment): void {
    if (this.sentBytes === attachment.leftAt) {
      attachment.leftAt = null;
      return;
    }
    if (attachment.told) return;
    attachment.told = true;
    attachment.sink.send('', this.sentBytes);
  }

  private updatePause(): void {
    let worst = 0;
    let stallingSince = Infinity;
    for (const attachment of this.attachments.values()) {
      if (attachment.leftAt !== null) continue;
      worst = Math.max(worst, attachment.unacknowledged);
      if (this.holdsBack(attachment)) stallingSince = Math.min(stallingSince, attachment.acknowledgedAt);
    }
    this.watchStalls(stallingSince);
    if (!this.source) return;
    if (!this.paused && worst > FLOW_CONTROL.highWatermark) {
      this.paused = true;
      this.source.pause();
    } else if (this.paused && worst < FLOW_CONTROL.lowWatermark) {
      this.paused = false;
      this.source.resume();
    }
  }

  /**
   * A client that may stall and keeps the PTY from running: over the high watermark, or, while the
   * PTY is paused, at or over the low one (it must go below that for the PTY to resume, so one that
   * drained part of the way and stopped holds it as surely as one that never acknowledged).
   */
  private holdsBack(attachment: Attachment): boolean {
    if (attachment.neverStalls) return false;
    const mark = this.paused ? FLOW_CONTROL.lowWatermark : FLOW_CONTROL.highWatermark + 1;
    return attachment.unacknowledged >= mark;
  }

  /** While a client holds the PTY back, a timer looks whether it has gone quiet for `stallMs`. */
  private watchStalls(stallingSince: number): void {
    if (stallingSince === Infinity) {
      clearTimeout(this.stallTimer);
      this.stallTimer = undefined;
      return;
    }
    if (this.stallTimer) return;
    this.stallTimer = setTimeout(() => {
      this.stallTimer = undefined;
      this.leaveStalledBehind();
    }, Math.max(0, stallingSince + this.stallMs - performance.now()));
    this.stallTimer.unref();
  }

  private leaveStalledBehind(): void {
    const now = performance.now();
    for (const attachment of this.attachments.values()) {
      if (attachment.leftAt === null && this.holdsBack(attachment) && now - attachment.acknowledgedAt >= this.stallMs) attachment.leftAt = this.sentBytes;
    }
    this.updatePause();
  }
}

/**
 * Clients acknowledge bytes (their chunks cross as UTF-8), the stream counts characters (what the
 * PTY gave): this turns one into the other, per attachment, from the chunks sent in order. A
 * client acknowledges whole chunks, so the rare partial one is prorated.
 */
export class SentChunks {
  private readonly chunks: { chars: number; bytes: number }[] = [];

  sent(data: string): void {
    this.chunks.push({ chars: data.length, bytes: Buffer.byteLength(data) });
  }

  /** The characters in the next `bytes` bytes the client has written. */
  charsIn(bytes: number): number {
    let chars = 0;
    let left = bytes;
    while (left > 0 && this.chunks.length > 0) {
      const chunk = this.chunks[0] as { chars: number; bytes: number };
      if (left >= chunk.bytes) {
        chars += chunk.chars;
        left -= chunk.bytes;
        this.chunks.shift();
      } else {
        const part = Math.floor((chunk.chars * left) / chunk.bytes);
        chars += part;
        chunk.chars -= part;
        chunk.bytes -= left;
        left = 0;
      }
    }
    return chars;
  }
}
