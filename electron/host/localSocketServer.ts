import fs from 'node:fs';
import net from 'node:net';
import type { PushFrame, ResponseFrame } from '../../shared/protocol';
import type { Connection } from './connection';
import { encodeLine, LineDecoder } from './lineFraming';

/** How much unsent output a client may fall behind by before it is disconnected. */
export const MAX_CLIENT_BACKLOG_BYTES = 32 * 1024 * 1024;

export interface LocalSocketServer {
  close(): Promise<void>;
}

/** Resolves true when something answers on the socket (a live Drover), false when it is stale. */
function isSocketLive(socketPath: string): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = net.connect(socketPath);
    probe.once('connect', () => {
      probe.destroy();
      resolve(true);
    });
    probe.once('error', () => resolve(false));
  });
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

/**
 * The CLI's door: newline-delimited JSON frames on a Unix socket that only the owner can open.
 * Binding it is also the data dir's instance lock: a live socket means another Drover owns the dir.
 */
export async function startLocalSocketServer(
  socketPath: string,
  connect: (push: (frame: PushFrame) => void) => Promise<Connection>,
): Promise<LocalSocketServer> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.setEncoding('utf8');
    const send = (frame: ResponseFrame | PushFrame) => {
      if (socket.destroyed) return;
      // A client that stopped reading is cut off rather than buffered without bound.
      if (socket.writableLength > MAX_CLIENT_BACKLOG_BYTES) socket.destroy();
      else socket.write(encodeLine(frame));
    };
    const connection = connect(send);
    const decoder = new LineDecoder((raw) => {
      void connection.then(async (c) => {
        if (raw instanceof Error) send({ t: 'res', id: null, ok: false, error: { code: 'bad-request', message: `Malformed frame: ${raw.message}` } });
        else send(await c.handle(raw));
      });
    });
    socket.on('data', (chunk: string) => {
      if (!decoder.push(chunk)) {
        send({ t: 'res', id: null, ok: false, error: { code: 'bad-request', message: 'Frame too large' } });
        socket.destroySoon();
      }
    });
    socket.on('error', () => socket.destroy());
    socket.on('close', () => {
      sockets.delete(socket);
      void connection.then((c) => c.close());
    });
  });

  try {
    await listen(server, socketPath);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
    if (await isSocketLive(socketPath)) {
      throw new Error(`Another Drover is already running on this data dir (its socket ${socketPath} answers).`, { cause: error });
    }
    fs.rmSync(socketPath, { force: true });
    await listen(server, socketPath);
  }
  fs.chmodSync(socketPath, 0o600);

  return {
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
