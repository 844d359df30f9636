import net from 'node:net';
import type { MethodName, MethodParams, MethodResult } from '../../shared/contract';
import type { DroverEvent } from '../../shared/events';
import { DroverRequestError, MAX_SERVER_FRAME_BYTES, type TaskOutputBytes } from '../../shared/protocol';
import { RpcClient } from '../../shared/rpcClient';
import { decodeStreamFrame } from '../../shared/streamFrames';
import { HostStreamReader } from '../host/socketRecords';
import type { AgentCredentials } from './agentCredentials';

/** The agent a connection proved it speaks for, with its project. */
export type AgentIdentity = MethodResult<'identifyAgent'>;

export interface SocketClient {
  rpc: RpcClient;
  /** Set when the connection identified as an agent (see connectToDrover's `agent`). */
  identity: AgentIdentity | null;
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

/**
 * Connects to a running Drover's local socket; rejects with a clear message when none answers.
 * With `agent`, the connection first identifies as that agent, or fails with Drover's refusal.
 */
export function connectToDrover(socketPath: string, handlers: PushListeners = {}, agent: AgentCredentials | null = null): Promise<SocketClient> {
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
    const close = () => socket.end();
    socket.once('connect', () => {
      if (!agent) return resolve({ rpc, identity: null, closed, close });
      rpc.call('identifyAgent', agent).then(
        (identity) => resolve({ rpc, identity, closed, close }),
        (error: unknown) => {
          close();
          reject(error instanceof Error ? error : new Error(String(error)));
        },
      );
    });
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
 * fail with a clear message and the next call connects again (identifying again as `agent`),
 * waiting up to `reconnectWithinMs` for Drover to answer. For long-lived clients such as `drover mcp`.
 */
export class DroverLink implements DroverCaller {
  private current: Promise<SocketClient> | null = null;
  private closed = false;

  constructor(
    private readonly socketPath: string,
    private readonly agent: AgentCredentials | null = null,
    private readonly reconnectWithinMs = 15_000,
  ) {}

  /** The first connection: fails at once when Drover is not running or refuses the agent. */
  async open(): Promise<AgentIdentity | null> {
    this.adopt(connectToDrover(this.socketPath, {}, this.agent));
    return (await (this.current as Promise<SocketClient>)).identity;
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
        return await connectToDrover(this.socketPath, {}, this.agent);
      } catch (error) {
        // A refusal (the agent's session ended) stays a refusal: only an absent Drover is waited for.
        if (this.closed || Date.now() >= deadline || error instanceof DroverRequestError) throw error;
        const delay = RECONNECT_STEPS_MS[Math.min(attempt, RECONNECT_STEPS_MS.length - 1)] as number;
        await new Promise((resolve) => setTimeout(resolve, delay));
      }
    }
  }
}
