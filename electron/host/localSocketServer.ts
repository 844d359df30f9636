import fs from 'node:fs';
import net from 'node:net';
import { MachineLineOpenerSchema } from '../../shared/machines';
import { MAX_REQUEST_FRAME_BYTES } from '../../shared/protocol';
import { ClientFlow } from './clientFlow';
import { hostAnswers } from './hostLauncher';
import type { Connection } from './connection';
import { socketPageChannel, type PageChannel } from './pageChannel';
import type { HostPush } from '../wire/frameCodec';
import { LineReader } from '../wire/lineFraming';
import { recordHeader } from '../wire/socketRecords';

/** How long the closing socket waits for its clients to read what they were sent. */
const FLUSH_MS = 1_000;

export interface LocalSocketServer {
  /** Tells every client the host stops on purpose (host-stopping), before close ends their connections. */
  sayStopping(): void;
  close(): Promise<void>;
}

function listen(server: net.Server, socketPath: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(socketPath, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

/** A connection's first line: the opener of a desktop window's line to another machine, or null. */
function machineLineOf(line: Buffer): string | null {
  try {
    return MachineLineOpenerSchema.parse(JSON.parse(line.toString('utf8'))).machine;
  } catch {
    return null;
  }
}

/**
 * The CLI's and the desktop window's door: newline-delimited JSON frames on a Unix socket that only
 * the owner can open (and binary records for terminal and task output, see socketRecords.ts). A
 * connection whose first line opens a machine line is handed to `openMachineLine` as a page channel.
 * Binding it is also the data dir's instance lock: a live socket means another Drover owns the dir.
 */
export async function startLocalSocketServer(
  socketPath: string,
  connect: (push: (frame: HostPush) => void) => Promise<Connection>,
  openMachineLine: (machine: string, page: PageChannel) => void,
  log: (line: string) => void,
): Promise<LocalSocketServer> {
  const clients = new Map<net.Socket, ClientFlow>();
  /** The connections that became machine lines: ended with the rest when the host stops. */
  const machineLines = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    const flow = new ClientFlow(
      {
        write: (frame, flushed) => {
          if (typeof frame === 'string') {
            socket.write(`${frame}\n`, flushed);
            return;
          }
          socket.write(recordHeader(frame.length));
          socket.write(frame, flushed);
        },
        backlogBytes: () => socket.writableLength,
        pauseInput: () => socket.pause(),
        resumeInput: () => socket.resume(),
        disconnect: () => socket.destroy(),
      },
      async (raw) => (await connection).handle(raw),
      log,
    );
    clients.set(socket, flow);
    const connection = connect((frame) => flow.push(frame));
    let receive = (frame: Buffer | Error): void => {
      receive = (next) => flow.receive(next);
      const machine = frame instanceof Error ? null : machineLineOf(frame);
      if (machine === null) return flow.receive(frame);
      clients.delete(socket);
      flow.close();
      connection.then((c) => c.close()).catch(() => undefined);
      machineLines.add(socket);
      socket.once('close', () => machineLines.delete(socket));
      openMachineLine(machine, socketPageChannel(socket, { onFrame: (listener) => (receive = listener) }));
    };
    const lines = new LineReader(
      MAX_REQUEST_FRAME_BYTES,
      (line) => receive(line),
      () => receive(new Error(`frame too large (the limit is ${MAX_REQUEST_FRAME_BYTES} bytes); the rest of that line is skipped`)),
    );
    socket.on('data', (chunk: Buffer) => lines.push(chunk));
    socket.on('error', () => socket.destroy());
    socket.on('close', () => {
      clients.delete(socket);
      flow.close();
      connection.then((c) => c.close()).catch(() => undefined);
    });
  });

  try {
    await listen(server, socketPath);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
    if (await hostAnswers(socketPath)) {
      throw new Error(`Another Drover is already running on this data dir (its socket ${socketPath} answers).`, { cause: error });
    }
    fs.rmSync(socketPath, { force: true });
    await listen(server, socketPath);
  }
  fs.chmodSync(socketPath, 0o600);

  return {
    sayStopping: () => {
      for (const flow of clients.values()) flow.push({ t: 'host-stopping' });
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        // What a client has not read yet (its replies, then host-stopping) is sent before its end, for
        // as long as it keeps reading: destroying the socket would drop it, and the stop read as a crash.
        const cutOff = setTimeout(() => {
          for (const socket of clients.keys()) socket.destroy();
        }, FLUSH_MS);
        server.once('close', () => clearTimeout(cutOff));
        for (const socket of machineLines) socket.end();
        for (const [socket, flow] of clients) {
          flow.close();
          socket.once('finish', () => socket.destroy());
          socket.end();
        }
      }),
  };
}
