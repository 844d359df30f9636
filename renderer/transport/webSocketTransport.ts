import { MACHINE_GONE_CLOSE_CODE } from '../../shared/machines';
import { DroverRequestError } from '../../shared/protocol';
import { decodeStreamFrame } from '../../shared/streamFrames';
import type { ClosableBridge, ConnectionState } from './bridgeTypes';
import { Listeners } from './listeners';
import { reconnectDelay } from './reconnectDelay';
import { createRpcBridge } from './rpcBridge';

/** How long a call the dropped connection left unanswered waits for the page to reconnect. */
const HOLD_CALLS_MS = 60_000;

/** This page load's own name for its calls (randomUUID needs a secure context, which a LAN door is not). */
function pageKey(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(12)), (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/**
 * Browser host: one WebSocket carrying JSON text frames, and binary frames for terminal and task
 * output (their bytes go to xterm undecoded). When it drops, the state turns 'lost' and it
 * reconnects with backoff; listeners of 'open' re-fetch their snapshots. A call left unanswered by
 * the drop goes again on the next connection, one that changes work state with its key, so the
 * host applies it once (calls on the connection itself fail: the listeners set them up again).
 * With `opensOnFirstMessage` (another machine's page, whose door greets that machine's host
 * first), the connection counts as open only once the first message came: a machine that cannot
 * be reached closes it before, so the page stays lost, with ssh's reason, and backs off.
 */
export function createWebSocketBridge(url: string, { opensOnFirstMessage = false } = {}): ClosableBridge {
  const connection = new Listeners<ConnectionState>();
  let state: ConnectionState = 'connecting';
  let socket: WebSocket | null = null;
  let failedAttempts = 0;
  let closed = false;
  let lostReason: string | null = null;

  const { rpc, bridge } = createRpcBridge(
    (frame) => {
      if (!socket || socket.readyState !== WebSocket.OPEN) {
        throw new DroverRequestError('internal', 'Not connected to Drover');
      }
      socket.send(JSON.stringify(frame));
    },
    { onConnectionChange: (listener) => connection.add(listener), connectionState: () => state, lostBecause: () => lostReason },
    { keyPrefix: `${pageKey()}-`, holdMs: HOLD_CALLS_MS },
  );

  /** Listeners hear of a new state, and of a new reason for staying lost (a failed reconnect said why). */
  function setState(next: ConnectionState, reason: string | null = null): void {
    if (next === state && reason === lostReason) return;
    state = next;
    lostReason = reason;
    connection.emit(next);
  }

  function connect(): void {
    const ws = new WebSocket(url);
    socket = ws;
    ws.binaryType = 'arraybuffer';
    const opened = () => {
      failedAttempts = 0;
      rpc.reconnected();
      setState('open');
    };
    ws.onopen = () => {
      if (!opensOnFirstMessage) opened();
    };
    ws.onmessage = (message: MessageEvent<unknown>) => {
      if (state !== 'open') opened();
      if (message.data instanceof ArrayBuffer) {
        rpc.receive(decodeStreamFrame(new Uint8Array(message.data)));
        return;
      }
      if (typeof message.data !== 'string') return;
      let frame: unknown;
      try {
        frame = JSON.parse(message.data);
      } catch {
        return;
      }
      rpc.receive(frame);
    };
    ws.onclose = (event) => {
      socket = null;
      rpc.connectionLost('Connection to Drover lost');
      setState('lost', event.code === MACHINE_GONE_CLOSE_CODE && event.reason ? event.reason : null);
      if (!closed) window.setTimeout(connect, reconnectDelay(failedAttempts++));
    };
  }

  connect();
  return {
    ...bridge,
    close: () => {
      closed = true;
      socket?.close();
    },
  };
}
