import type { DroverEvent, TaskOutputChunk } from '../../../shared/events';

type Listener<T> = (value: T) => void;

/**
 * The core's outgoing stream. Hosts subscribe once and fan out to their clients; a throwing
 * listener must not stop the others or the write that caused the event. A listener may cause
 * further events (a task's end posts an inbox message): those are queued until the current event
 * reached every listener, so every listener sees events in the order they happened (in seq order).
 */
export class EventBus {
  private readonly eventListeners = new Set<Listener<DroverEvent>>();
  private readonly outputListeners = new Set<Listener<TaskOutputChunk>>();
  private readonly queue: DroverEvent[] = [];
  private delivering = false;

  constructor(private readonly reportListenerError: (error: unknown) => void = () => {}) {}

  onEvent(listener: Listener<DroverEvent>): () => void {
    this.eventListeners.add(listener);
    return () => this.eventListeners.delete(listener);
  }

  onOutput(listener: Listener<TaskOutputChunk>): () => void {
    this.outputListeners.add(listener);
    return () => this.outputListeners.delete(listener);
  }

  /** How many listeners (of events and of output) are subscribed: none once their owners shut down. */
  listenerCount(): number {
    return this.eventListeners.size + this.outputListeners.size;
  }

  emit(event: DroverEvent): void {
    this.queue.push(event);
    if (this.delivering) return;
    this.delivering = true;
    try {
      for (let next = this.queue.shift(); next; next = this.queue.shift()) this.deliver(this.eventListeners, next);
    } finally {
      this.delivering = false;
    }
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
