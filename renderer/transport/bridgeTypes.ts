import type { MethodName, MethodParams, MethodResult } from '../../shared/contract';
import type { DroverEvent } from '../../shared/events';
import type { TaskOutputBytes, TerminalBytes } from '../../shared/protocol';

export type ConnectionState = 'connecting' | 'open' | 'lost';

/** Why a connection is lost, as far as the page can tell. */
export type ConnectionLoss =
  /** The machine the line goes to went: ssh's reason, or its host's (a machine's page, a machine followed). */
  | { kind: 'machine'; reason: string }
  /** The `drover serve` that served the page stopped, and with it the door; the host goes on. */
  | { kind: 'serve-ended' }
  /** The host was stopped (`drover host stop`, a restart, a quit): its agents and tasks ended. */
  | { kind: 'host-stopped' }
  /** The connection ended without a word: the host crashed or was killed, or the network dropped. */
  | { kind: 'broke-off' }
  /**
   * The page cannot connect until the person opens the URL `drover serve` printed, and does not try
   * again: it has no token, the server on its port did not prove it holds the token, or the door
   * refused the page's proof.
   */
  | { kind: 'refused'; why: 'no-token' | 'not-the-door' | 'token-refused' };
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
