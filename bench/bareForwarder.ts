import { type AddressInfo } from 'node:net';
import * as pty from 'node-pty';
import { WebSocketServer } from 'ws';
import { FLOW_CONTROL } from '../electron/core/sessions/terminalStream';

/**
 * The flood bench's ceiling, in a process of its own as the host is: the least a PTY -> WebSocket
 * forwarder in Node can do. It reads the PTY as bytes, batches them and pauses the PTY with
 * Drover's flow control (a forwarder without it would let a slow client's memory grow without
 * bound), and sends binary messages; no decode, no mirror, no file, no frame header, no RPC.
 * Its client acknowledges with the byte count as text. Run with the flood's shell command; it
 * sends its port over IPC and serves one connection.
 */
function forward(command: string): void {
  const server = new WebSocketServer({ host: '127.0.0.1', port: 0, perMessageDeflate: false });
  server.on('listening', () => process.send?.((server.address() as AddressInfo).port));
  server.on('connection', (socket) => {
    const terminal = pty.spawn('/bin/sh', ['-c', command], { cols: 120, rows: 30, encoding: null });
    let batch: Buffer[] = [];
    let batchBytes = 0;
    let timer: NodeJS.Timeout | undefined;
    let unacknowledged = 0;
    let paused = false;
    const flush = () => {
      clearTimeout(timer);
      timer = undefined;
      if (batchBytes === 0) return;
      socket.send(Buffer.concat(batch, batchBytes));
      unacknowledged += batchBytes;
      batch = [];
      batchBytes = 0;
      if (!paused && unacknowledged > FLOW_CONTROL.highWatermark) {
        paused = true;
        terminal.pause();
      }
    };
    // node-pty's typings say string; with `encoding: null` its chunks are Buffers.
    terminal.onData((data: string | Buffer) => {
      const chunk = Buffer.isBuffer(data) ? data : Buffer.from(data);
      batch.push(chunk);
      batchBytes += chunk.length;
      if (batchBytes >= FLOW_CONTROL.maxBatchChars) flush();
      else timer ??= setTimeout(flush, FLOW_CONTROL.batchMs);
    });
    socket.on('message', (message) => {
      unacknowledged -= Number(message.toString());
      if (paused && unacknowledged < FLOW_CONTROL.lowWatermark) {
        paused = false;
        terminal.resume();
      }
    });
    terminal.onExit(() => process.exit(0));
  });
}

forward(process.argv[2] ?? 'true');
