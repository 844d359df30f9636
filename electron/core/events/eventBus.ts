import type { DroverEvent, TaskOutputChunk } from '../../../shared/events';

type Listener<T> = (value: T) => void;

/**
 * The core's outgoing stream. Hosts subscribe once and fan out to their clients; a throwing
 * listener must not stop the others or the write that caused the event.
 */
export class EventBus {
  private readonly eventListeners = new Set<Listener<DroverEvent>>();
  private readonly outputListeners = new Set<Listener<TaskOutputChunk>>();

  constructor(private readonly reportListenerError: (error: unknown) => void = () => {}) {}

  onEvent(listener: Listener<DroverEvent>): () => void {
    this.eventListeners.add(listener);
    return () => this.eventListeners.delete(listener);
  }

  onOutput(listener: Listener<TaskOutputChunk>): () => void {
    this.outputListeners.add(listener);
    return () => this.outputListeners.delete(listener);
  }

  emit(event: DroverEvent): void {
    this.deliver(this.eventListeners, event);
  }

  emitOutput(chunk: TaskOutputChunk): void {
    this.deliver(this.outputListeners, chunk);
  }

  private deliver<T>(listeners: Set<Listener<T>>, value: T): void {
    for (const listener of listeners) {
      try {
        listener(value);
      } catch (error) {
        this.reportListenerError(error);
      }
    }
  }
}
