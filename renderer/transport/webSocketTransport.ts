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
 */
export function createWebSocketBridge(url: string): ClosableBridge {
  const connection = new Listeners<ConnectionState>();
  let state: ConnectionState = 'connecting';
  let socket: WebSocket | null = null;
  let failedAttempts = 0;
  let closed = false;

  const { rpc, bridge } = createRpcBridge(
    (frame) => {
      if (!socket || socket.readyState !== WebSocket.OPEN) {
        throw new DroverRequestError('internal', 'Not connected to Drover');
      }
      socket.send(JSON.stringify(frame));
    },
    { onConnectionChange: (listener) => connection.add(listener), connectionState: () => state },
    { keyPrefix: `${pageKey()}-`, holdMs: HOLD_CALLS_MS },
  );

  function setState(next: ConnectionState): void {
    if (next === state) return;
    state = next;
    connection.emit(next);
  }

  function connect(): void {
    const ws = new WebSocket(url);
    socket = ws;
    ws.binaryType = 'arraybuffer';
    ws.onopen = () => {
      failedAttempts = 0;
      rpc.reconnected();
      setState('open');
    };
    ws.onmessage = (message: MessageEvent<unknown>) => {
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
    ws.onclose = () => {
      socket = null;
      rpc.connectionLost('Connection to Drover lost');
      setState('lost');
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
