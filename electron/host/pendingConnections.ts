import type { Socket } from 'node:net';
import { DOOR_HANDSHAKE_MS } from '../../shared/browserDoor';

export interface PendingLimits {
  /** Connections of one door on their way in at once; the oldest goes when one more comes. */
  maxPending: number;
  /** How long one may wait for its request, or for its handshake to end, before it goes. */
  withinMs: number;
  /** What a WebSocket may send before the door let it in (the handshake takes a few hundred bytes). */
  maxHandshakeBytes: number;
}

export const PENDING_LIMITS: Readonly<PendingLimits> = {
  maxPending: 64,
  withinMs: DOOR_HANDSHAKE_MS,
  maxHandshakeBytes: 4096,
};

/** One connection on its way in. */
interface Pending {
  /** Runs while it waits (not while its request is answered). */
  clock: NodeJS.Timeout | null;
  /** Counts what a WebSocket sends before it is let in. */
  counter: ((chunk: Buffer) => void) | null;
}

/**
 * The connections of a door that are not (yet) a page it let in: requests for the page's files,
 * and WebSockets in their handshake. Each holds one of the host's file descriptors without having
 * shown the token, so the door keeps few of them, briefly, and reads little from them: another user
 * flooding the port cannot take the descriptors the host's local socket (the person's CLI, the
 * agents' `drover mcp` and hooks) needs.
 */
export class PendingConnections {
  /** In the order they came. */
  private readonly pending = new Map<Socket, Pending>();

  constructor(private readonly limits: Readonly<PendingLimits> = PENDING_LIMITS) {}

  admit(socket: Socket): void {
    if (this.pending.size >= this.limits.maxPending) {
      const [oldest] = this.pending.keys();
      if (oldest) this.drop(oldest);
    }
    this.pending.set(socket, { clock: null, counter: null });
    this.startClock(socket);
    socket.once('close', () => this.forget(socket));
  }

  /** Its request is being answered: it still counts, but a long download is not cut off. */
  answering(socket: Socket): void {
    this.stopClock(socket);
  }

  /** Its answer went out: it waits for its next request, or goes. */
  answered(socket: Socket): void {
    this.startClock(socket);
  }

  /** It became a WebSocket: its handshake must end within the same time, and be small. */
  upgraded(socket: Socket): void {
    const entry = this.pending.get(socket);
    if (!entry) return;
    let received = 0;
    entry.counter = (chunk) => {
      received += chunk.length;
      if (received > this.limits.maxHandshakeBytes) this.drop(socket);
    };
    socket.on('data', entry.counter);
  }

  /** The door let it in: a page with the token, no longer limited here. */
  letIn(socket: Socket): void {
    this.forget(socket);
  }

  /** Ends every connection still on its way in (the door closes). */
  dropAll(): void {
    for (const socket of [...this.pending.keys()]) this.drop(socket);
  }

  private startClock(socket: Socket): void {
    const entry = this.pending.get(socket);
    if (!entry) return;
    if (entry.clock) clearTimeout(entry.clock);
    entry.clock = setTimeout(() => this.drop(socket), this.limits.withinMs);
    entry.clock.unref();
  }

  private stopClock(socket: Socket): void {
    const entry = this.pending.get(socket);
    if (entry?.clock) clearTimeout(entry.clock);
    if (entry) entry.clock = null;
  }

  private drop(socket: Socket): void {
    this.forget(socket);
    socket.destroy();
  }

  private forget(socket: Socket): void {
    const entry = this.pending.get(socket);
    if (!entry) return;
    if (entry.clock) clearTimeout(entry.clock);
    if (entry.counter) socket.off('data', entry.counter);
    this.pending.delete(socket);
  }
}
