import { refusalFrame, type ResponseFrame } from '../../shared/protocol';
import { decodeFrame, encodeServerFrame, encodeStreamPush, malformedFrameReply, type HostPush } from '../wire/frameCodec';

/** What a door gives the flow: a way to write frames to one client and to stop reading from it. */
export interface ClientChannel {
  /**
   * Writes one encoded frame, JSON text or a binary stream frame (shared/streamFrames.ts);
   * `flushed` runs once the operating system has taken it.
   */
  write(frame: string | Buffer, flushed: () => void): void;
  /** Bytes written but not yet taken by the operating system: what the client has not read. */
  backlogBytes(): number;
  pauseInput(): void;
  resumeInput(): void;
  disconnect(): void;
}

const MB = 1024 * 1024;

export interface FlowLimits {
  maxInFlight: number;
  holdRequestsAbove: number;
  maxWaitingRequestBytes: number;
  maxUnreadPushBytes: number;
}

export const FLOW_LIMITS: Readonly<FlowLimits> = {
  /** Requests of one client answered at once; more wait their turn (long polls count). */
  maxInFlight: 16,
  /** No new request of a client is taken up while this much output to it is unread. */
  holdRequestsAbove: 4 * MB,
  /** Reading from a client stops while this much of its requests waits to be taken up. */
  maxWaitingRequestBytes: 16 * MB,
  /**
   * Pushes (events, output) a client has not read. Its own requests are held back instead, so only
   * a client that stopped reading while the host keeps happening reaches this, and is disconnected
   * (its snapshot brings it up to date when it reconnects).
   */
  maxUnreadPushBytes: 32 * MB,
};

/**
 * One client's traffic on a framed door, with back-pressure: a request is taken up only while the
 * client keeps reading what it was sent, at most `maxInFlight` at a time, and reading from it
 * pauses while too many requests wait. Every request gets exactly one reply, whatever it held.
 */
export class ClientFlow {
  private readonly waiting: (Buffer | Error)[] = [];
  private waitingBytes = 0;
  private inFlight = 0;
  private unreadPushBytes = 0;
  private inputPaused = false;
  private closed = false;

  constructor(
    private readonly channel: ClientChannel,
    private readonly handle: (raw: unknown) => Promise<ResponseFrame>,
    private readonly log: (line: string) => void,
    private readonly limits: Readonly<FlowLimits> = FLOW_LIMITS,
  ) {}

  /** One frame's bytes from the client, or why its frame was refused before it could be read. */
  receive(frame: Buffer | Error): void {
    if (this.closed) return;
    this.waiting.push(frame);
    this.waitingBytes += frame instanceof Error ? 0 : frame.length;
    this.pump();
  }

  push(frame: HostPush): void {
    if (this.closed) return;
    const encoded = frame.t === 'term' || frame.t === 'out' ? encodeStreamPush(frame, this.log) : encodeServerFrame(frame, this.log);
    if (encoded === null) return;
    const bytes = typeof encoded === 'string' ? Buffer.byteLength(encoded) : encoded.length;
    if (this.unreadPushBytes + bytes > this.limits.maxUnreadPushBytes) {
      this.log(`a client stopped reading (${this.unreadPushBytes} bytes of events unread): disconnected`);
      this.close();
      this.channel.disconnect();
      return;
    }
    this.unreadPushBytes += bytes;
    this.channel.write(encoded, () => {
      this.unreadPushBytes -= bytes;
      this.pump();
    });
  }

  close(): void {
    this.closed = true;
    this.waiting.length = 0;
    this.waitingBytes = 0;
  }

  private pump(): void {
    while (!this.closed && this.waiting.length > 0 && this.inFlight < this.limits.maxInFlight && this.channel.backlogBytes() < this.limits.holdRequestsAbove) {
      const frame = this.waiting.shift() as Buffer | Error;
      this.waitingBytes -= frame instanceof Error ? 0 : frame.length;
      this.inFlight++;
      void this.answer(frame);
    }
    if (this.closed) return;
    const shouldPause = this.waitingBytes > this.limits.maxWaitingRequestBytes;
    if (shouldPause !== this.inputPaused) {
      this.inputPaused = shouldPause;
      if (shouldPause) this.channel.pauseInput();
      else this.channel.resumeInput();
    }
  }

  private async answer(frame: Buffer | Error): Promise<void> {
    let reply: ResponseFrame;
    try {
      const raw = frame instanceof Error ? frame : decodeFrame(frame);
      reply = raw instanceof Error ? malformedFrameReply(raw) : await this.handle(raw);
    } catch (error) {
      reply = refusalFrame(null, 'internal', `Internal error: ${error instanceof Error ? error.message : String(error)}`);
    }
    const text = this.closed ? null : encodeServerFrame(reply, this.log);
    if (text === null) {
      this.inFlight--;
      return;
    }
    this.channel.write(text, () => {
      this.inFlight--;
      this.pump();
    });
  }
}
