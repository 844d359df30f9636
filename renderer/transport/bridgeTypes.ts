import type { MethodName, MethodParams, MethodResult } from '../../shared/contract';
import type { DroverEvent } from '../../shared/events';
import type { ConnectionLoss } from '../../shared/connectionLoss';
import type { TaskOutputBytes, TerminalBytes } from '../../shared/protocol';

export type ConnectionState = 'connecting' | 'open' | 'lost';

export type Unsubscribe = () => void;

/** Everything the UI knows about the core: one typed call and four push streams. */
export interface Bridge {
  call<M extends MethodName>(method: M, params: MethodParams<M>): Promise<MethodResult<M>>;
  onEvent(listener: (event: DroverEvent) => void): Unsubscribe;
  /** Live chunks of tasks this connection watches (`watchTaskOutput`); watches end with the connection. */
  onOutput(listener: (chunk: TaskOutputBytes) => void): Unsubscribe;
  /** Terminal chunks of agents this connection attached to (`attachAgentTerminal`); attachments end with the connection. */
  onTerminal(listener: (chunk: TerminalBytes) => void): Unsubscribe;
  onConnectionChange(listener: (state: ConnectionState) => void): Unsubscribe;
  connectionState(): ConnectionState;
  /** Why the connection is lost; null while it is not. */
  loss(): ConnectionLoss | null;
}

/** A bridge the page opened for itself (another machine's), ended once that machine is gone. */
export interface ClosableBridge extends Bridge {
  /** Closes the connection for good: no reconnect. */
  close(): void;
}
