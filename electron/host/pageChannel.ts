import type net from 'node:net';
import type { WebSocket } from 'ws';
import { MACHINE_GONE_CLOSE_CODE, type MachineGoneFrame } from '../../shared/machines';
import { recordHeader } from '../wire/socketRecords';

/**
 * One page's line into the host, whatever carries it: a browser page's WebSocket, or a desktop
 * window's connection to the local socket (whose frames main passes on unread). The host reaches
 * every machine for either through the same code (machineDoor.ts).
 */
export interface PageChannel {
  /** One frame to the page: JSON text, or a binary stream frame (shared/streamFrames.ts). */
  send(frame: string | Buffer): void;
  /** Bytes sent but not yet taken by the operating system: what the page has not read. */
  backlogBytes(): number;
  isOpen(): boolean;
  /** Each frame of the page, or why one was refused before it could be read. */
  onFrame(listener: (frame: Buffer | Error) => void): void;
  onClose(listener: () => void): void;
  /** Ends the line because its machine cannot be reached, saying why in plain words. */
  closeGone(reason: string): void;
  /** Cuts the line without a word (a peer that broke the protocol). */
  terminate(): void;
}

/** A WebSocket close reason holds at most 123 bytes: ssh's own words go first when it is too long. */
export function closeReason(text: string): string {
  if (Buffer.byteLength(text) <= 123) return text;
  const plain = text.split(' (ssh: ')[0] ?? text;
  return Buffer.byteLength(plain) <= 123 ? plain : `${Buffer.from(plain).subarray(0, 119).toString('utf8').replace(/\uFFFD$/, '')}…`;
}

/** A browser page's WebSocket: text messages are frames, a binary one is refused. */
export function webSocketPageChannel(ws: WebSocket): PageChannel {
  return {
    send: (frame) => ws.send(frame),
    backlogBytes: () => ws.bufferedAmount,
    isOpen: () => ws.readyState === ws.OPEN,
    onFrame: (listener) =>
      ws.on('message', (data, isBinary) => {
        if (isBinary) listener(new Error('binary frames are not accepted; send JSON text'));
        else listener(Buffer.isBuffer(data) ? data : Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data));
      }),
    onClose: (listener) => ws.on('close', listener),
    closeGone: (reason) => ws.close(MACHINE_GONE_CLOSE_CODE, closeReason(reason)),
    terminate: () => ws.terminate(),
  };
}

/**
 * A connection to the local socket that asked to be a page's line: frames go out as the socket
 * carries them (JSON lines, binary records), and the reason a machine is gone as a last line
 * before the end. Its incoming lines are read by the socket server, which hands them to `frames`.
 */
export function socketPageChannel(socket: net.Socket, frames: { onFrame(listener: (frame: Buffer | Error) => void): void }): PageChannel {
  const writeLine = (text: string) => socket.write(`${text}\n`);
  return {
    send: (frame) => {
      if (typeof frame === 'string') writeLine(frame);
      else socket.write(Buffer.concat([recordHeader(frame.length), frame]));
    },
    backlogBytes: () => socket.writableLength,
    isOpen: () => !socket.destroyed && socket.writable,
    onFrame: (listener) => frames.onFrame(listener),
    onClose: (listener) => socket.on('close', listener),
    closeGone: (reason) => {
      const gone: MachineGoneFrame = { t: 'machine-gone', reason };
      writeLine(JSON.stringify(gone));
      socket.end();
    },
    terminate: () => socket.destroy(),
  };
}
