import net from 'node:net';
import WebSocket from 'ws';
import { LineReader } from '../electron/wire/lineFraming';
import { MAX_SERVER_FRAME_BYTES, type ResponseFrame } from '../shared/protocol';
import { openDoorSocket } from './doorSocket';

/** A door spoken to frame by frame, to send what no well-behaved client would; it counts replies. */
export interface RawClient {
  replies: ResponseFrame[];
  send(frame: string | Buffer, options?: { binary?: boolean }): void;
  closed: Promise<void>;
  isOpen(): boolean;
  close(): void;
}

function collect(frame: unknown, replies: ResponseFrame[]): void {
  if ((frame as { t?: unknown }).t === 'res') replies.push(frame as ResponseFrame);
}

/** A raw local-socket client: each frame is written as given, followed by a newline. */
export async function rawSocketClient(socketPath: string): Promise<RawClient> {
  const socket = net.connect(socketPath);
  await new Promise((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  socket.on('error', () => undefined);
  const replies: ResponseFrame[] = [];
  // Linear, unlike readline, which rescans a long line for every chunk of it.
  const lines = new LineReader(
    MAX_SERVER_FRAME_BYTES,
    (line) => collect(JSON.parse(line.toString('utf8')), replies),
    () => {
      throw new Error('the host sent a frame over its own limit');
    },
  );
  socket.on('data', (chunk: Buffer) => lines.push(chunk));
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  return {
    replies,
    send: (frame) => {
      socket.write(frame);
      socket.write('\n');
    },
    closed,
    isOpen: () => !socket.destroyed,
    close: () => socket.destroy(),
  };
}

/** A raw WebSocket client of `drover serve`'s /api, let in as a page is. */
export async function rawWebSocketClient(serveUrl: string): Promise<RawClient> {
  const replies: ResponseFrame[] = [];
  const ws = await openDoorSocket(serveUrl, { onMessage: (data) => collect(JSON.parse(String(data)), replies) });
  ws.on('error', () => undefined);
  const closed = new Promise<void>((resolve) => ws.once('close', () => resolve()));
  return {
    replies,
    send: (frame, options = {}) => ws.send(frame, { binary: options.binary ?? false }),
    closed,
    isOpen: () => ws.readyState === WebSocket.OPEN,
    close: () => ws.terminate(),
  };
}
