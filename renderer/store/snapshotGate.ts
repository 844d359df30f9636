import { DroverRequestError, type ErrorCode } from '../../shared/protocol';
import { errorMessage } from '../format/errorMessage';

/**
 * Decides, for one snapshot-plus-events stream, which events to apply: only those newer than the
 * snapshot. Events that arrive while a snapshot is in flight wait for it, then the newer ones apply.
 * Events may arrive out of seq order (the host emits an inbox message while still announcing the
 * task change that caused it), so the gate compares with the snapshot only; each entity keeps its
 * own newest version by seq.
 */
export class SnapshotGate<E extends { seq: number }> {
  /** `null` until a snapshot has landed: events before then have nothing to apply to. */
  private snapshotSeq: number | null = null;
  private pendingSnapshot = 0;
  private buffered: E[] = [];
  private nextTicket = 1;

  /** Returns a ticket; only the latest ticket's snapshot is accepted. */
  beginSnapshot(): number {
    this.pendingSnapshot = this.nextTicket++;
    this.buffered = [];
    return this.pendingSnapshot;
  }

  /** Returns the buffered events to apply on top of the snapshot, or `null` if the ticket is stale. */
  completeSnapshot(ticket: number, seq: number): E[] | null {
    if (ticket !== this.pendingSnapshot) return null;
    this.snapshotSeq = seq;
    return this.settle();
  }

  /** The snapshot failed: keep what was held, plus the buffered events newer than it. */
  failSnapshot(ticket: number): E[] | null {
    if (ticket !== this.pendingSnapshot) return null;
    return this.settle();
  }

  /** True when the event should be applied now; it may instead be buffered or dropped as stale. */
  admit(event: E): boolean {
    if (this.pendingSnapshot !== 0) {
      this.buffered.push(event);
      return false;
    }
    return this.snapshotSeq !== null && event.seq > this.snapshotSeq;
  }

  private settle(): E[] {
    const buffered = this.buffered;
    this.buffered = [];
    this.pendingSnapshot = 0;
    return buffered.filter((event) => this.admit(event));
  }
}

/** Where `loadThroughGate` puts what it learns. */
export interface SnapshotTarget<S, E> {
  /** The fetch starts. */
  loading(): void;
  /** False once nobody follows the stream any more (its answers are then dropped). */
  followed(): boolean;
  loaded(snapshot: S): void;
  failed(message: string, code: ErrorCode | null): void;
  /** Applies one event newer than the snapshot. */
  apply(event: E): void;
}

/**
 * Fetches one snapshot through the gate: the snapshot, then the buffered events newer than it.
 * A failed fetch keeps what was held and still applies the buffered events; a snapshot overtaken
 * by a later request is dropped.
 */
export async function loadThroughGate<S extends { seq: number }, E extends { seq: number }>(
  gate: SnapshotGate<E>,
  fetch: () => Promise<S>,
  target: SnapshotTarget<S, E>,
): Promise<void> {
  const ticket = gate.beginSnapshot();
  target.loading();
  try {
    const snapshot = await fetch();
    const newer = gate.completeSnapshot(ticket, snapshot.seq);
    if (newer === null || !target.followed()) return;
    target.loaded(snapshot);
    newer.forEach(target.apply);
  } catch (error) {
    const newer = gate.failSnapshot(ticket);
    if (newer === null || !target.followed()) return;
    target.failed(errorMessage(error), error instanceof DroverRequestError ? error.code : null);
    newer.forEach(target.apply);
  }
}
