import net from 'node:net';
import packageJson from '../../package.json';
import type { MethodName, MethodParams, MethodResult } from '../../shared/contract';
import type { DroverEvent } from '../../shared/events';
import { PROTOCOL_VERSION, type HostHello } from '../../shared/host';
import { DroverRequestError, MAX_SERVER_FRAME_BYTES, type TaskOutputBytes } from '../../shared/protocol';
import { RpcClient } from '../../shared/rpcClient';
import { decodeStreamFrame } from '../../shared/streamFrames';
import { HostStreamReader } from '../wire/socketRecords';
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
  /** The host said it stops on purpose, before the connection ends. */
  onHostStopping?(): void;
}

function unreachable(socketPath: string, error: NodeJS.ErrnoException): string {
  return error.code === 'ENOENT' || error.code === 'ECONNREFUSED'
    ? `Drover is not running (no answer on ${socketPath}). Start it with \`drover host start\`, \`drover serve\` or the desktop app.`
    : `Cannot reach Drover on ${socketPath}: ${error.message}`;
}

/** The host says who it is (a host from before the handshake does not know it: it speaks protocol 1). */
async function hostHelloOf(rpc: RpcClient, client: string): Promise<HostHello> {
  try {
    return await rpc.call('hostHello', { protocol: PROTOCOL_VERSION, version: packageJson.version, client });
  } catch (error) {
    if (!(error instanceof DroverRequestError && error.code === 'unknown-method')) throw error;
    return { protocol: 1, version: 'older', pid: 0, rendererDir: null };
  }
}

/** The host says who it is; a host of another protocol is named, with how to move it to this one. */
export async function greetHost(rpc: RpcClient, client: string): Promise<HostHello> {
  const hello = await hostHelloOf(rpc, client);
  if (hello.protocol !== PROTOCOL_VERSION) {
    throw new Error(
      `The running Drover host is version ${hello.version} (protocol ${hello.protocol}); this drover is ${packageJson.version} (protocol ${PROTOCOL_VERSION}). ` +
        'Restart the host to use this version: drover host restart (it names the agents and tasks that would stop).',
    );
  }
  return hello;
}

/** Who a connection is for: the client's kind (named to the host) and, for an agent, its proof. */
export interface ConnectAs {
  client?: string;
  agent?: AgentCredentials | null;
  /**
   * For `drover host status | stop | restart` only: the host's own methods are the same in every
   * protocol, so a host of another one can still be asked what it runs and be moved to this one.
   */
  anyProtocol?: boolean;
}

/**
 * Connects to a running Drover's local socket and greets it (see greetHost); with `agent`, the
 * connection then identifies as that agent. Rejects with a clear message when none answers, it
 * speaks another protocol, or it refuses the agent.
 */
export async function connectToDrover(socketPath: string, handlers: PushListeners = {}, { client = 'cli', agent = null, anyProtocol = false }: ConnectAs = {}): Promise<SocketClient> {
  const connected = await openSocket(socketPath, handlers);
  try {
    await (anyProtocol ? hostHelloOf : greetHost)(connected.rpc, client);
    return agent ? { ...connected, identity: await connected.rpc.call('identifyAgent', agent) } : connected;
  } catch (error) {
    connected.close();
    throw error;
  }
}

/** Connects without greeting the host: for a client that decides itself what a mismatch means (the window). */
export function openSocket(socketPath: string, handlers: PushListeners): Promise<SocketClient> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(socketPath);
    const rpc = new RpcClient((frame) => {
      // A call after the host went away would wait for an answer that never comes.
      if (socket.destroyed || socket.writableEnded) throw new Error('Drover closed the connection.');
      socket.write(`${JSON.stringify(frame)}\n`);
    }, handlers);
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
    let connected = false;
    socket.once('connect', () => {
      connected = true;
      resolve({ rpc, identity: null, closed, close: () => socket.end() });
    });
    socket.on('error', (error: NodeJS.ErrnoException) => {
      // Once connected, an error is the host going away mid-conversation (a reset), as a close is.
      const message = connected ? 'Drover closed the connection.' : unreachable(socketPath, error);
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
    this.adopt(connectToDrover(this.socketPath, {}, { agent: this.agent }));
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
        return await connectToDrover(this.socketPath, {}, { agent: this.agent });
      } catch (error) {
        // A refusal (the agent's session ended) stays a refusal: only an absent Drover is waited for.
        if (this.closed || Date.now() >= deadline || error instanceof DroverRequestError) throw error;
        const delay = RECONNECT_STEPS_MS[Math.min(attempt, RECONNECT_STEPS_MS.length - 1)] as number;
        await new Promise((resolve) => setTimeout(resolve, delay));
      }
    }
  }
}
