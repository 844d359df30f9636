import net from 'node:net';
import { MAX_SERVER_FRAME_BYTES, refusalFrame, RequestFrameSchema, type PushFrame, type ResponseFrame } from '../../shared/protocol';
import { decodeStreamFrame } from '../../shared/streamFrames';
import { describeIssues } from '../../shared/validationIssues';
import { HostStreamReader } from '../wire/socketRecords';

/** A connection that speaks the host socket's protocol: the local socket, or an ssh bridge to a machine's host. */
export interface HostLine {
  input: NodeJS.WritableStream;
  output: NodeJS.ReadableStream;
  /** Resolves once the connection is gone. */
  ended: Promise<unknown>;
  end(): void;
}

function socketLine(socket: net.Socket): HostLine {
  socket.on('error', () => socket.destroy());
  return { input: socket, output: socket, ended: new Promise((resolve) => socket.once('close', resolve)), end: () => socket.end() };
}

/**
 * One window page's line to a host: its request frames go out on a connection of its own (to the
 * host's local socket, or over ssh to another machine's), each reply comes back to the call that
 * sent it, and everything the host pushes (events, terminal and task output) goes to the page.
 * Main only routes: the host validates every frame, as it does for any client, and the page
 * validates what it gets.
 */
export class HostRelay {
  /** Resolves once the connection is gone (the page went, or the host did). */
  readonly closed: Promise<void>;
  private readonly pending = new Map<number, (frame: ResponseFrame) => void>();
  private isOpen = true;

  constructor(
    private readonly line: HostLine,
    private readonly push: (frame: PushFrame) => void,
  ) {
    const reader = new HostStreamReader(
      MAX_SERVER_FRAME_BYTES,
      (line) => this.receiveLine(line),
      (record) => {
        const frame = decodeStreamFrame(record);
        if (frame) this.push(frame as PushFrame);
      },
      () => undefined,
    );
    line.output.on('data', (chunk: Buffer) => reader.push(chunk));
    this.closed = line.ended.then(() => {
      this.isOpen = false;
      for (const answer of this.pending.values()) answer(refusalFrame(null, 'internal', 'The connection to the Drover host was lost.'));
      this.pending.clear();
    });
  }

  static open(socketPath: string, push: (frame: PushFrame) => void): Promise<HostRelay> {
    return new Promise((resolve, reject) => {
      const socket = net.connect(socketPath);
      socket.once('connect', () => {
        socket.off('error', reject);
        resolve(new HostRelay(socketLine(socket), push));
      });
      socket.once('error', reject);
    });
  }

  /** Sends one request frame of the page and resolves with the host's reply to it. */
  invoke(raw: unknown): Promise<ResponseFrame> {
    const frame = RequestFrameSchema.safeParse(raw);
    if (!frame.success) return Promise.resolve(refusalFrame(null, 'internal', `Malformed request frame: ${describeIssues(frame.error, 'params')}`));
    if (!this.isOpen) return Promise.resolve(refusalFrame(frame.data.id, 'internal', 'Not connected to the Drover host.'));
    if (this.pending.has(frame.data.id)) return Promise.resolve(refusalFrame(frame.data.id, 'internal', `Request ${frame.data.id} is already waiting for its reply.`));
    return new Promise((resolve) => {
      this.pending.set(frame.data.id, (reply) => resolve({ ...reply, id: frame.data.id }));
      this.line.input.write(`${JSON.stringify(frame.data)}\n`);
    });
  }

  isConnected(): boolean {
    return this.isOpen;
  }

  close(): void {
    this.line.end();
  }

  private receiveLine(line: Buffer): void {
    let frame: { t?: unknown; id?: unknown };
    try {
      frame = JSON.parse(line.toString('utf8')) as { t?: unknown; id?: unknown };
    } catch {
      return;
    }
    if (frame.t === 'evt') {
      this.push(frame as PushFrame);
      return;
    }
    if (frame.t !== 'res' || typeof frame.id !== 'number') return;
    const answer = this.pending.get(frame.id);
    this.pending.delete(frame.id);
    answer?.(frame as ResponseFrame);
  }
}
