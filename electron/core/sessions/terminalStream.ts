/**
 * Flow control for one agent terminal, modelled on VS Code's: output is batched (every 5 ms, or at
 * once past 64 KiB), each client acknowledges what it has written, and the PTY is paused while any
 * client has more than 100,000 characters unacknowledged, resuming once all are below 5,000. Output
 * after a quiet spell (a keystroke's echo) goes at once: only what follows it within 5 ms waits.
 */
export const FLOW_CONTROL = {
  batchMs: 5,
  maxBatchChars: 64 * 1024,
  highWatermark: 100_000,
  lowWatermark: 5_000,
} as const;

export interface FlowSource {
  pause(): void;
  resume(): void;
}

export interface TerminalSink {
  /** `at`: where `data` starts in the stream, in UTF-8 bytes. */
  send(data: string, at: number): void;
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
}

export class TerminalStream {
  private readonly attachments = new Map<number, Attachment>();
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

  /** The sink also gets what was pushed but not sent yet: flush first to start after it. */
  attach(sink: TerminalSink): StreamAttachment {
    const id = this.nextAttachmentId++;
    this.attachments.set(id, { sink, unacknowledged: 0 });
    return {
      at: this.sentBytes,
      acknowledge: (chars) => {
        const attachment = this.attachments.get(id);
        if (!attachment) return;
        attachment.unacknowledged = Math.max(0, attachment.unacknowledged - chars);
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
      attachment.unacknowledged += data.length;
      attachment.sink.send(data, at);
    }
    this.updatePause();
  }

  private updatePause(): void {
    const worst = Math.max(0, ...[...this.attachments.values()].map((a) => a.unacknowledged));
    if (!this.source) return;
    if (!this.paused && worst > FLOW_CONTROL.highWatermark) {
      this.paused = true;
      this.source.pause();
    } else if (this.paused && worst < FLOW_CONTROL.lowWatermark) {
      this.paused = false;
      this.source.resume();
    }
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
