import net from 'node:net';
import type { MethodName, MethodParams, MethodResult } from '../../shared/contract';
import type { DroverEvent } from '../../shared/events';
import { MAX_SERVER_FRAME_BYTES, type TaskOutputBytes } from '../../shared/protocol';
import { RpcClient } from '../../shared/rpcClient';
import { decodeStreamFrame } from '../../shared/streamFrames';
import { HostStreamReader } from '../host/socketRecords';

export interface SocketClient {
  rpc: RpcClient;
  /** Resolves once the socket is gone (closed by either side). */
  closed: Promise<void>;
  close(): void;
}

export interface PushListeners {
  onEvent?(event: DroverEvent): void;
  onOutput?(chunk: TaskOutputBytes): void;
}

function unreachable(socketPath: string, error: NodeJS.ErrnoException): string {
  return error.code === 'ENOENT' || error.code === 'ECONNREFUSED'
    ? `Drover is not running (no answer on ${socketPath}). Start it with \`drover serve\` or the desktop app.`
    : `Cannot reach Drover on ${socketPath}: ${error.message}`;
}

/** Connects to a running Drover's local socket; rejects with a clear message when none answers. */
export function connectToDrover(socketPath: string, handlers: PushListeners = {}): Promise<SocketClient> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(socketPath);
    const rpc = new RpcClient((frame) => socket.write(`${JSON.stringify(frame)}\n`), handlers);
    const frames = new HostStreamReader(
      MAX_SERVER_FRAME_BYTES,
      (line) => {
        try {
          rpc.receive(JSON.parse(line.toString('utf8')));
        } catch {
          // Not a frame: RpcClient ignores what it cannot read, and so does this.
        }
      },
      (record) => rpc.receive(decodeStreamFrame(record)),
      () => rpc.failAll(`Drover sent a frame larger than ${MAX_SERVER_FRAME_BYTES} bytes.`),
    );
    const closed = new Promise<void>((resolveClosed) => socket.once('close', () => resolveClosed()));
    socket.on('data', (chunk: Buffer) => frames.push(chunk));
    socket.once('connect', () => resolve({ rpc, closed, close: () => socket.end() }));
    socket.on('error', (error: NodeJS.ErrnoException) => {
      const message = unreachable(socketPath, error);
      rpc.failAll(message);
      reject(new Error(message));
    });
    socket.on('close', () => rpc.failAll('Drover closed the connection.'));
  });
}

/** Anything that calls the contract: an RpcClient, or a DroverLink that reconnects under it. */
export interface DroverCaller {
  call<M extends MethodName>(method: M, params: MethodParams<M>): Promise<MethodResult<M>>;
}

const RECONNECT_STEPS_MS = [50, 100, 200, 400, 800, 1000];

/**
 * A connection to Drover that comes back: when the socket drops (Drover restarted), calls in flight
 * fail with a clear message and the next call connects again, waiting up to `reconnectWithinMs`
 * for Drover to answer. For long-lived clients such as `drover mcp`.
 */
export class DroverLink implements DroverCaller {
  private current: Promise<SocketClient> | null = null;
  private closed = false;

  constructor(
    private readonly socketPath: string,
    private readonly reconnectWithinMs = 15_000,
  ) {}

  /** The first connection: fails at once when Drover is not running. */
  async open(): Promise<void> {
    this.adopt(connectToDrover(this.socketPath));
    await this.current;
  }

  async call<M extends MethodName>(method: M, params: MethodParams<M>): Promise<MethodResult<M>> {
    const client = await this.connected();
    return client.rpc.call(method, params);
  }

  close(): void {
    this.closed = true;
    void this.current?.then((client) => client.close(), () => undefined);
    this.current = null;
  }

  private connected(): Promise<SocketClient> {
    if (this.closed) return Promise.reject(new Error('The connection to Drover was closed.'));
    if (!this.current) this.adopt(this.reconnect());
    return this.current as Promise<SocketClient>;
  }

  private adopt(connecting: Promise<SocketClient>): void {
    this.current = connecting;
    connecting.then(
      (client) => {
        void client.closed.then(() => {
          if (this.current === connecting) this.current = null;
        });
      },
      () => {
        if (this.current === connecting) this.current = null;
      },
    );
  }

  private async reconnect(): Promise<SocketClient> {
    const deadline = Date.now() + this.reconnectWithinMs;
    for (let attempt = 0; ; attempt++) {
      try {
        return await connectToDrover(this.socketPath);
      } catch (error) {
        if (this.closed || Date.now() >= deadline) throw error;
        const delay = RECONNECT_STEPS_MS[Math.min(attempt, RECONNECT_STEPS_MS.length - 1)] as number;
        await new Promise((resolve) => setTimeout(resolve, delay));
      }
    }
  }
}
