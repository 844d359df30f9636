import { DOOR_CLOSE, DOOR_HANDSHAKE_MS, toHex } from '../../shared/browserDoor';
import { MACHINE_GONE_CLOSE_CODE } from '../../shared/machines';
import { DroverRequestError } from '../../shared/protocol';
import { decodeStreamFrame } from '../../shared/streamFrames';
import type { ConnectionLoss } from '../../shared/connectionLoss';
import type { ClosableBridge, ConnectionState } from './bridgeTypes';
import { Listeners } from './listeners';
import { PageHandshake } from './pageHandshake';
import { reconnectDelay } from './reconnectDelay';
import { createRpcBridge } from './rpcBridge';

/** How long a call the dropped connection left unanswered waits for the page to reconnect. */
const HOLD_CALLS_MS = 60_000;

/** This page load's own name for its calls (randomUUID needs a secure context, which a LAN door is not). */
function pageKey(): string {
  return toHex(crypto.getRandomValues(new Uint8Array(12)));
}

/** What a close with this code says happened; null when it says nothing (no close frame: the other end vanished). */
function lossOfClose({ code, reason }: CloseEvent): ConnectionLoss | null {
  if (code === MACHINE_GONE_CLOSE_CODE && reason) return { kind: 'machine', reason };
  if (code === DOOR_CLOSE.serveEnded.code) return { kind: 'serve-ended' };
  if (code === DOOR_CLOSE.hostStopped.code) return { kind: 'host-stopped' };
  if (code === DOOR_CLOSE.refused.code) return { kind: 'refused', why: 'token-refused' };
  return null;
}

export interface WebSocketBridgeOptions {
  /** What the page proves itself with (doorKey.ts); null: it has none, and says so instead of connecting. */
  key: Uint8Array | null;
  /**
   * Another machine's page, whose door greets that machine's host first: the connection counts as
   * open only once the first message after the handshake came.
   */
  opensOnFirstMessage?: boolean;
}

/**
 * Browser host: one WebSocket carrying JSON text frames, and binary frames for terminal and task
 * output (their bytes go to xterm undecoded). Each connection starts with the door's handshake
 * (pageHandshake.ts); a server that does not prove it is the door gets nothing more, and the page
 * stops there, as it does when it has no key or the door refuses it: it needs the URL `drover
 * serve` printed. When it drops, the state turns 'lost', with what the door's close said (or
 * nothing, when the other end vanished), and it reconnects with backoff; listeners of 'open'
 * re-fetch their snapshots. A call left unanswered by the drop goes again on the next connection,
 * one that changes work state with its key, so the host applies it once (calls on the connection
 * itself fail: the listeners set them up again). A machine's page stays lost while its machine
 * cannot be reached, with ssh's reason, and backs off.
 */
export function createWebSocketBridge(url: string, { key, opensOnFirstMessage = false }: WebSocketBridgeOptions): ClosableBridge {
  const connection = new Listeners<ConnectionState>();
  let state: ConnectionState = 'connecting';
  let socket: WebSocket | null = null;
  /** The current socket got through the handshake. */
  let letIn = false;
  let failedAttempts = 0;
  let closed = false;
  let loss: ConnectionLoss | null = null;

  const { rpc, bridge } = createRpcBridge(
    (frame) => {
      if (!socket || !letIn || socket.readyState !== WebSocket.OPEN) {
        throw new DroverRequestError('internal', 'Not connected to Drover');
      }
      socket.send(JSON.stringify(frame));
    },
    { onConnectionChange: (listener) => connection.add(listener), connectionState: () => state, loss: () => loss },
    { keyPrefix: `${pageKey()}-`, holdMs: HOLD_CALLS_MS },
  );

  /** Listeners hear of a new state, and of a new reason for staying lost (a failed reconnect said why). */
  function setState(next: ConnectionState, nextLoss: ConnectionLoss | null = null): void {
    if (next === state && JSON.stringify(nextLoss) === JSON.stringify(loss)) return;
    state = next;
    loss = nextLoss;
    connection.emit(next);
  }

  function connect(pageKeyBytes: Uint8Array): void {
    const ws = new WebSocket(url);
    socket = ws;
    letIn = false;
    ws.binaryType = 'arraybuffer';
    const handshake = new PageHandshake(pageKeyBytes);
    let refusal: ConnectionLoss | null = null;
    // A server that accepts the socket and says nothing is not the door either: try again later.
    const silence = window.setTimeout(() => ws.close(), DOOR_HANDSHAKE_MS);
    const opened = () => {
      failedAttempts = 0;
      rpc.reconnected();
      setState('open');
    };
    ws.onopen = () => ws.send(handshake.hello());
    ws.onmessage = (message: MessageEvent<unknown>) => {
      if (!letIn) {
        const step = handshake.receive(message.data);
        if (step === 'not-the-door') {
          refusal = { kind: 'refused', why: 'not-the-door' };
          ws.close();
        } else if (step === 'let-in') {
          window.clearTimeout(silence);
          letIn = true;
          if (!opensOnFirstMessage) opened();
        } else {
          ws.send(step.send);
        }
        return;
      }
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
      window.clearTimeout(silence);
      const wasLetIn = letIn;
      socket = null;
      letIn = false;
      rpc.connectionLost('Connection to Drover lost');
      const said = refusal ?? lossOfClose(event);
      // A reconnect that fails without a word keeps what the last close said (serve stopped, say).
      setState('lost', said ?? (wasLetIn || !loss ? { kind: 'broke-off' } : loss));
      if (!closed && said?.kind !== 'refused') window.setTimeout(() => connect(pageKeyBytes), reconnectDelay(failedAttempts++));
    };
  }

  if (key) connect(key);
  else setState('lost', { kind: 'refused', why: 'no-token' });
  return {
    ...bridge,
    close: () => {
      closed = true;
      socket?.close();
    },
  };
}
