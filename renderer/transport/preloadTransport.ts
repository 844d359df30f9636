import type { DroverEvent, TaskOutputChunk, TerminalChunk } from '../../shared/events';
import type { PreloadBridge } from '../../shared/preloadBridge';
import { RpcClient } from '../../shared/rpcClient';
import type { Bridge } from './bridgeTypes';
import { Listeners } from './listeners';

/** Electron: IPC cannot drop like a socket, so the connection is open from the start. */
export function createPreloadBridge(preload: PreloadBridge): Bridge {
  const events = new Listeners<DroverEvent>();
  const output = new Listeners<TaskOutputChunk>();
  const terminal = new Listeners<TerminalChunk>();
  const rpc: RpcClient = new RpcClient(
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
    { onEvent: (event) => events.emit(event), onOutput: (chunk) => output.emit(chunk), onTerminal: (chunk) => terminal.emit(chunk) },
  );
  preload.onPush((frame) => rpc.receive(frame));

  return {
    call: (method, params) => rpc.call(method, params),
    onEvent: (listener) => events.add(listener),
    onOutput: (listener) => output.add(listener),
    onTerminal: (listener) => terminal.add(listener),
    onConnectionChange: () => () => undefined,
    connectionState: () => 'open',
  };
}
