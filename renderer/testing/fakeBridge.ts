import type { MethodName, MethodParams, MethodResult } from '../../shared/contract';
import type { DroverEvent } from '../../shared/events';
import type { TaskOutputBytes, TerminalBytes } from '../../shared/protocol';
import type { Bridge, ConnectionLoss, ConnectionState } from '../bridge';
import { Listeners } from '../transport/listeners';

/** Lets pending promise callbacks and zero-delay timers run. */
export const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

/**
 * A bridge whose push streams and connection the test drives. Subclasses answer `call` the way
 * their test needs (pending until answered, a fake log, a fake terminal, ...).
 */
export abstract class BaseFakeBridge implements Bridge {
  private readonly eventListeners = new Listeners<DroverEvent>();
  private readonly outputListeners = new Listeners<TaskOutputBytes>();
  private readonly terminalListeners = new Listeners<TerminalBytes>();
  private readonly connectionListeners = new Listeners<ConnectionState>();

  constructor(private state: ConnectionState = 'open') {}

  abstract call<M extends MethodName>(method: M, params: MethodParams<M>): Promise<MethodResult<M>>;

  onEvent(listener: (event: DroverEvent) => void) {
    return this.eventListeners.add(listener);
  }
  onOutput(listener: (chunk: TaskOutputBytes) => void) {
    return this.outputListeners.add(listener);
  }
  onTerminal(listener: (chunk: TerminalBytes) => void) {
    return this.terminalListeners.add(listener);
  }
  onConnectionChange(listener: (state: ConnectionState) => void) {
    return this.connectionListeners.add(listener);
  }
  connectionState() {
    return this.state;
  }
  loss(): ConnectionLoss | null {
    return this.state === 'lost' ? { kind: 'broke-off' } : null;
  }

  setConnection(state: ConnectionState): void {
    this.state = state;
    this.connectionListeners.emit(state);
  }
  push(event: DroverEvent): void {
    this.eventListeners.emit(event);
  }
  pushOutput(chunk: TaskOutputBytes): void {
    this.outputListeners.emit(chunk);
  }
  pushTerminal(chunk: TerminalBytes): void {
    this.terminalListeners.emit(chunk);
  }
}
