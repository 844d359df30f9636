import net from 'node:net';
import type { TaskOutputChunk, DroverEvent } from '../../shared/events';
import { RpcClient } from '../../shared/rpcClient';
import { encodeLine, LineDecoder } from '../host/lineFraming';

export interface SocketClient {
  rpc: RpcClient;
  close(): void;
}

/** Connects to a running Drover's local socket; rejects with a clear message when none answers. */
export function connectToDrover(
  socketPath: string,
  handlers: { onEvent?(event: DroverEvent): void; onOutput?(chunk: TaskOutputChunk): void } = {},
): Promise<SocketClient> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(socketPath);
    socket.setEncoding('utf8');
    const rpc = new RpcClient((frame) => socket.write(encodeLine(frame)), handlers);
    const decoder = new LineDecoder((frame) => rpc.receive(frame));
    socket.on('data', (chunk: string) => decoder.push(chunk));
    socket.once('connect', () => resolve({ rpc, close: () => socket.end() }));
    socket.on('error', (error: NodeJS.ErrnoException) => {
      const message =
        error.code === 'ENOENT' || error.code === 'ECONNREFUSED'
          ? `Drover is not running (no answer on ${socketPath}). Start it with \`drover serve\` or the desktop app.`
          : `Cannot reach Drover on ${socketPath}: ${error.message}`;
      rpc.failAll(message);
      reject(new Error(message));
    });
    socket.on('close', () => rpc.failAll('Drover closed the connection.'));
  });
}
