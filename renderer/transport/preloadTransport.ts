import type { PreloadBridge } from '../../shared/preloadBridge';
import type { Bridge } from './bridgeTypes';
import { createRpcBridge } from './rpcBridge';

/** Electron: IPC cannot drop like a socket, so the connection is open from the start. */
export function createPreloadBridge(preload: PreloadBridge): Bridge {
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
    { onConnectionChange: () => () => undefined, connectionState: () => 'open' },
  );
  preload.onPush((frame) => rpc.receive(frame));
  return bridge;
}
