import type { ChannelWake } from '../../../shared/contract/wake';
import { fail } from '../errors';
import { newId } from '../ids';

/** How handing a wake to an agent's channel went. */
export type ChannelPush =
  | { outcome: 'sent' }
  /** Nothing reached the CLI (no channel open, or the MCP server could not send it): typing may deliver it. */
  | { outcome: 'not-sent'; why: string }
  /** Handed over but never confirmed: it may have reached the CLI, so it must not be delivered again. */
  | { outcome: 'unknown'; why: string };

interface Waiter {
  resolve(wake: ChannelWake | null): void;
  signal: AbortSignal | undefined;
  /** Whether its connection still speaks for the agent: a server of an ended session is handed nothing. */
  takes(): boolean;
}

interface Handover {
  agentId: string;
  settle(push: ChannelPush): void;
}

/**
 * The agents' wake channels: an agent's MCP server whose CLI takes Claude Code's channel events
 * waits here (awaitChannelWake) for its next wake, and reports whether it sent it on. A channel is
 * open only while its server waits, so an agent whose server went away is typed to again.
 */
export class WakeChannels {
  /** Per agent, its MCP servers' waiting polls, oldest first (a CLI may start more than one server). */
  private readonly waiters = new Map<string, Waiter[]>();
  private readonly handovers = new Map<string, Handover>();

  isOpen(agentId: string): boolean {
    return this.waiters.get(agentId)?.some((waiter) => waiter.takes()) ?? false;
  }

  /** The MCP server's long-poll: the next wake for the agent, or null after `timeoutMs` or when its client goes away. */
  next(agentId: string, timeoutMs: number, signal?: AbortSignal, takes: () => boolean = () => true): Promise<ChannelWake | null> {
    return new Promise((resolve) => {
      const finish = (wake: ChannelWake | null) => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', gone);
        this.withdraw(agentId, waiter);
        resolve(wake);
      };
      const gone = () => finish(null);
      const waiter: Waiter = { resolve: finish, signal, takes };
      const timer = setTimeout(gone, timeoutMs);
      timer.unref();
      this.waiters.set(agentId, [...(this.waiters.get(agentId) ?? []), waiter]);
      signal?.addEventListener('abort', gone, { once: true });
      if (signal?.aborted) gone();
    });
  }

  /** Hands `content` to the agent's newest waiting MCP server and waits up to `confirmMs` for its report. */
  push(agentId: string, content: string, confirmMs: number): Promise<ChannelPush> {
    const waiter = this.waiters.get(agentId)?.findLast((open) => open.takes());
    if (!waiter) return Promise.resolve({ outcome: 'not-sent', why: 'no wake channel is open' });
    const deliveryId = newId('d');
    return new Promise((resolve) => {
      const settle = (push: ChannelPush) => {
        if (!this.handovers.delete(deliveryId)) return;
        clearTimeout(timer);
        waiter.signal?.removeEventListener('abort', gone);
        resolve(push);
      };
      const gone = () => settle({ outcome: 'unknown', why: 'its MCP server went away before saying whether it sent the wake' });
      const timer = setTimeout(() => settle({ outcome: 'unknown', why: `its MCP server did not confirm the wake within ${confirmMs} ms` }), confirmMs);
      timer.unref();
      this.handovers.set(deliveryId, { agentId, settle });
      waiter.signal?.addEventListener('abort', gone, { once: true });
      waiter.resolve({ deliveryId, content, meta: { delivery_id: deliveryId } });
    });
  }

  /** The MCP server's report on a wake it was handed. */
  report(agentId: string, deliveryId: string, result: { sent: true } | { sent: false; error: string }): void {
    const handover = this.handovers.get(deliveryId);
    if (!handover || handover.agentId !== agentId) fail('not-found', `No wake ${deliveryId} is waiting for this agent's report (it may have timed out).`);
    handover.settle(result.sent ? { outcome: 'sent' } : { outcome: 'not-sent', why: result.error });
  }

  private withdraw(agentId: string, waiter: Waiter): void {
    const left = (this.waiters.get(agentId) ?? []).filter((other) => other !== waiter);
    if (left.length > 0) this.waiters.set(agentId, left);
    else this.waiters.delete(agentId);
  }
}
