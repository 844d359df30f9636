import type { PreloadBridge } from '../../shared/preloadBridge';
import type { Bridge, ConnectionState } from './bridgeTypes';
import { Listeners } from './listeners';
import { createRpcBridge } from './rpcBridge';

/**
 * Electron: main loads the window once it reached the host, so the connection starts open; main
 * says when the host went away and when it is back. A window of another machine starts connecting:
 * main reaches that machine's host over ssh after the page loaded.
 */
export function createPreloadBridge(preload: PreloadBridge, startsOpen = true): Bridge {
  const connection = new Listeners<ConnectionState>();
  let state: ConnectionState = startsOpen ? 'open' : 'connecting';
  let lostReason: string | null = null;
  // A machine that stays unreachable for another reason is told again, so the page shows the latest.
  preload.onConnection((notice) => {
    const reason = notice.state === 'lost' ? notice.reason : null;
    if (notice.state === state && reason === lostReason) return;
    state = notice.state;
    lostReason = reason;
    connection.emit(notice.state);
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
    { onConnectionChange: (listener) => connection.add(listener), connectionState: () => state, lostBecause: () => lostReason },
  );
  preload.onPush((frame) => rpc.receive(frame));
  return bridge;
}
