import type { MethodParams } from '../../shared/contract';
import type { DroverEvent } from '../../shared/events';
import { PERFORMANCE_MARKS } from '../../shared/performanceMarks';
import type { RequestFrame, TaskOutputBytes, TerminalBytes } from '../../shared/protocol';
import { RpcClient, type DropPolicy } from '../../shared/rpcClient';
import type { Bridge } from './bridgeTypes';
import { Listeners } from './listeners';

/**
 * A Bridge over an RpcClient, for any transport: calls go out through `sendFrame`, pushed frames
 * fan out to the UI's listeners, and the transport says how its connection stands. The transport
 * feeds every frame it receives to the returned `rpc`.
 */
export function createRpcBridge(
  sendFrame: (frame: RequestFrame) => void,
  connection: Pick<Bridge, 'onConnectionChange' | 'connectionState' | 'loss'>,
  dropPolicy?: DropPolicy,
): { rpc: RpcClient; bridge: Bridge } {
  const events = new Listeners<DroverEvent>();
  const output = new Listeners<TaskOutputBytes>();
  const terminal = new Listeners<TerminalBytes>();
  const rpc = new RpcClient(sendFrame, {
    onEvent: (event) => events.emit(event),
    onOutput: (chunk) => output.emit(chunk),
    onTerminal: (chunk) => terminal.emit(chunk),
    onChecked: (method, params, arrivedAt) => {
      if (method !== 'getWorkState') return;
      const { projectId } = params as MethodParams<'getWorkState'>;
      performance.measure(PERFORMANCE_MARKS.workStatePartChecked, { start: arrivedAt, detail: { projectId } });
    },
  }, dropPolicy);
  const bridge: Bridge = {
    call: (method, params) => rpc.call(method, params),
    onEvent: (listener) => events.add(listener),
    onOutput: (listener) => output.add(listener),
    onTerminal: (listener) => terminal.add(listener),
    onConnectionChange: connection.onConnectionChange,
    connectionState: connection.connectionState,
    loss: connection.loss,
  };
  return { rpc, bridge };
}
