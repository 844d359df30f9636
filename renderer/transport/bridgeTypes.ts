import type { MethodName, MethodParams, MethodResult } from '../../shared/contract';
import type { DroverEvent, TaskOutputChunk } from '../../shared/events';

export type ConnectionState = 'connecting' | 'open' | 'lost';
export type Unsubscribe = () => void;

/** Everything the UI knows about the core: one typed call and three push streams. */
export interface Bridge {
  call<M extends MethodName>(method: M, params: MethodParams<M>): Promise<MethodResult<M>>;
  onEvent(listener: (event: DroverEvent) => void): Unsubscribe;
  /** Live chunks of tasks this connection watches (`watchTaskOutput`); watches end with the connection. */
  onOutput(listener: (chunk: TaskOutputChunk) => void): Unsubscribe;
  onConnectionChange(listener: (state: ConnectionState) => void): Unsubscribe;
  connectionState(): ConnectionState;
}
