import { toHex } from '../../shared/browserDoor';
import type { ConnectionLoss } from '../../shared/connectionLoss';
import type { MethodParams } from '../../shared/contract';
import type { DroverEvent } from '../../shared/events';
import { PERFORMANCE_MARKS } from '../../shared/performanceMarks';
import { DroverRequestError, type TaskOutputBytes, type TerminalBytes } from '../../shared/protocol';
import { RpcClient } from '../../shared/rpcClient';
import { decodeStreamFrame } from '../../shared/streamFrames';
import type { ClosableBridge, ConnectionState } from './bridgeTypes';
import { Listeners } from './listeners';
import { reconnectDelay } from './reconnectDelay';

/** How long a call the dropped connection left unanswered waits for the page to reconnect. */
const HOLD_CALLS_MS = 60_000;

/** What a carrier tells the frame transport of one connection it opened. */
export interface CarrierEvents {
  /** The connection reached the host (the door let the page in; main reached the host's socket). */
  opened(): void;
  /** One frame from the host: JSON text, or a binary stream frame (shared/streamFrames.ts). */
  received(frame: string | Uint8Array): void;
  /** The connection ended, with what its end said went, or null when it said nothing. */
  closed(loss: ConnectionLoss | null): void;
}

/** One connection of a carrier. */
export interface CarrierConnection {
  /** One JSON request frame. */
  send(frame: string): void;
  close(): void;
}

/**
 * What carries a page's frames to its host: a WebSocket through the browser door, or the desktop
 * window's preload. Each call opens one connection; the frame transport opens the next when it drops.
 */
export type Carrier = (events: CarrierEvents) => CarrierConnection;

export interface FrameBridgeOptions {
  /**
   * Another machine's line, whose host the door greets first: the connection counts as open only
   * once the first frame after the carrier opened came.
   */
  opensOnFirstMessage?: boolean;
}

/** This page load's own name for its calls (randomUUID needs a secure context, which a LAN door is not). */
function pageKey(): string {
  return toHex(crypto.getRandomValues(new Uint8Array(12)));
}

function parsedFrame(frame: string | Uint8Array): unknown {
  if (typeof frame !== 'string') return decodeStreamFrame(frame);
  try {
    return JSON.parse(frame);
  } catch {
    return null;
  }
}

/**
 * The page's one client of its host, whatever carries it: calls and their replies, the pushes fanned
 * out to the UI's listeners, and the connection's state. When the connection drops the state turns
 * 'lost', with what its end said (or nothing, when the other end vanished; a host that said it
 * stops reads as stopped), and it reconnects with backoff; listeners of 'open' re-fetch their
 * snapshots. A call left unanswered by the drop goes again on the next connection, one that changes
 * work state with its key, so the host applies it once (calls on the connection itself fail: the
 * listeners set them up again). A refused page does not try again: it needs the URL `drover serve`
 * printed.
 */
export function createFrameBridge(carrier: Carrier, { opensOnFirstMessage = false }: FrameBridgeOptions = {}): ClosableBridge {
  const connection = new Listeners<ConnectionState>();
  const events = new Listeners<DroverEvent>();
  const output = new Listeners<TaskOutputBytes>();
  const terminal = new Listeners<TerminalBytes>();
  let state: ConnectionState = 'connecting';
  let loss: ConnectionLoss | null = null;
  /** The connection in use, once its carrier opened it (null while connecting or lost). */
  let current: { connection: CarrierConnection | null; through: boolean; hostStopping: boolean } | null = null;
  let failedAttempts = 0;
  let closed = false;

  const rpc = new RpcClient(
    (frame) => {
      const through = current?.through ? current.connection : null;
      if (!through) throw new DroverRequestError('internal', 'Not connected to Drover');
      through.send(JSON.stringify(frame));
    },
    {
      onEvent: (event) => events.emit(event),
      onOutput: (chunk) => output.emit(chunk),
      onTerminal: (chunk) => terminal.emit(chunk),
      onHostStopping: () => current && (current.hostStopping = true),
      onChecked: (method, params, arrivedAt) => {
        if (method !== 'getWorkState') return;
        const { projectId } = params as MethodParams<'getWorkState'>;
        performance.measure(PERFORMANCE_MARKS.workStatePartChecked, { start: arrivedAt, detail: { projectId } });
      },
    },
    { keyPrefix: `${pageKey()}-`, holdMs: HOLD_CALLS_MS },
  );

  /** Listeners hear of a new state, and of a new reason for staying lost (a failed reconnect said why). */
  function setState(next: ConnectionState, nextLoss: ConnectionLoss | null = null): void {
    if (next === state && JSON.stringify(nextLoss) === JSON.stringify(loss)) return;
    state = next;
    loss = nextLoss;
    connection.emit(next);
  }

  function opened(): void {
    failedAttempts = 0;
    rpc.reconnected();
    setState('open');
  }

  function connect(): void {
    // A carrier may say the connection ended before it returned it (a page without a key).
    const attempt: NonNullable<typeof current> = { connection: null, through: false, hostStopping: false };
    current = attempt;
    attempt.connection = carrier({
      opened: () => {
        if (current !== attempt) return;
        attempt.through = true;
        if (!opensOnFirstMessage) opened();
      },
      received: (frame) => {
        if (current !== attempt || !attempt.through) return;
        if (state !== 'open') opened();
        rpc.receive(parsedFrame(frame));
      },
      closed: (said) => {
        if (current !== attempt) return;
        current = null;
        rpc.connectionLost('Connection to Drover lost');
        const told = said ?? (attempt.hostStopping ? { kind: 'host-stopped' as const } : null);
        // A reconnect that fails without a word keeps what the last end said (serve stopped, say).
        setState('lost', told ?? (attempt.through || !loss ? { kind: 'broke-off' } : loss));
        if (!closed && told?.kind !== 'refused') setTimeout(connect, reconnectDelay(failedAttempts++));
      },
    });
  }

  connect();
  return {
    call: (method, params) => rpc.call(method, params),
    onEvent: (listener) => events.add(listener),
    onOutput: (listener) => output.add(listener),
    onTerminal: (listener) => terminal.add(listener),
    onConnectionChange: (listener) => connection.add(listener),
    connectionState: () => state,
    loss: () => loss,
    close: () => {
      closed = true;
      const last = current;
      current = null;
      last?.connection?.close();
      rpc.failAll('This connection to Drover was closed.');
    },
  };
}
