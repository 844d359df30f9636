import type { DroverEvent, TaskOutputChunk, TerminalChunk } from '../../shared/events';
import { DroverRequestError } from '../../shared/protocol';
import { RpcClient } from '../../shared/rpcClient';
import type { Bridge, ConnectionState } from './bridgeTypes';
import { Listeners } from './listeners';
import { reconnectDelay } from './reconnectDelay';

/**
 * Browser host: one WebSocket carrying JSON text frames. When it drops, pending calls fail, the
 * state turns 'lost', and it reconnects with backoff; listeners of 'open' re-fetch their snapshots.
 */
export function createWebSocketBridge(url: string): Bridge {
  const events = new Listeners<DroverEvent>();
  const output = new Listeners<TaskOutputChunk>();
  const terminal = new Listeners<TerminalChunk>();
  const connection = new Listeners<ConnectionState>();
  let state: ConnectionState = 'connecting';
  let socket: WebSocket | null = null;
  let failedAttempts = 0;

  const rpc = new RpcClient(
    (frame) => {
      if (!socket || socket.readyState !== WebSocket.OPEN) {
        throw new DroverRequestError('internal', 'Not connected to Drover');
      }
      socket.send(JSON.stringify(frame));
    },
    { onEvent: (event) => events.emit(event), onOutput: (chunk) => output.emit(chunk), onTerminal: (chunk) => terminal.emit(chunk) },
  );

  function setState(next: ConnectionState): void {
    if (next === state) return;
    state = next;
    connection.emit(next);
  }

  function connect(): void {
    const ws = new WebSocket(url);
    socket = ws;
    ws.onopen = () => {
      failedAttempts = 0;
      setState('open');
    };
    ws.onmessage = (message: MessageEvent<unknown>) => {
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
      rpc.failAll('Connection to Drover lost');
      setState('lost');
      window.setTimeout(connect, reconnectDelay(failedAttempts++));
    };
  }

  connect();

  return {
    call: (method, params) => rpc.call(method, params),
    onEvent: (listener) => events.add(listener),
    onOutput: (listener) => output.add(listener),
    onTerminal: (listener) => terminal.add(listener),
    onConnectionChange: (listener) => connection.add(listener),
    connectionState: () => state,
  };
}
