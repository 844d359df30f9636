import type { PreloadBridge } from '../../shared/preloadBridge';
import type { Bridge, ConnectionState } from './bridgeTypes';
import { Listeners } from './listeners';
import { createRpcBridge } from './rpcBridge';

/**
 * Electron: main loads the page once it reached the host, so the connection starts open; main says
 * when the host went away and when it is back.
 */
export function createPreloadBridge(preload: PreloadBridge): Bridge {
  const connection = new Listeners<ConnectionState>();
  let state: ConnectionState = 'open';
  preload.onConnection((next) => {
    if (next === state) return;
    state = next;
    connection.emit(next);
  });
  const { rpc, bridge } = createRpcBridge(
    (frame) => {
      preload.invoke(frame).then(
        (response) => rpc.receive(response),
        (error: unknown) =>
          rpc.receive({
            t: 'res',
            id: frame.id,
            ok: false,
            error: { code: 'internal', message: error instanceof Error ? error.message : String(error) },
          }),
      );
    },
    { onConnectionChange: (listener) => connection.add(listener), connectionState: () => state, lostBecause: () => null },
  );
  preload.onPush((frame) => rpc.receive(frame));
  return bridge;
}
