import type { WakeStyle } from '../../../shared/entities/profiles';
import type { AgentSession } from '../../../shared/entities/sessions';
import type { Wake } from '../../../shared/entities/wake';
import { limitLiftsAt } from '../../../shared/limitReset';
import { fail } from '../errors';
import type { EventBus } from '../events/eventBus';
import { newId } from '../ids';
import type { MediatedInbox } from '../inbox/mediatedInbox';
import type { Locator } from '../locate';
import type { PromptTimings } from '../sessions/promptTyping';
import type { ProjectStore, ProjectStores } from '../storage/projectStores';
import type { WakeChange } from '../storage/wakeStore';
import type { WakeDelivery } from './wakeDelivery';
import { composeWakeText, WAKE_NAMES_AT_MOST } from './wakeText';

/** Accounts a person paused: no agent of one gets an automatic wake. */
export interface WakeHolds {
  isPaused(profileId: string): boolean;
}

export interface WakeOptions extends PromptTimings {
  retryBaseMs: number;
  maxAttempts: number;
  /** How soon to look again at an agent whose state says ready but whose screen does not show its prompt. */
  recheckMs: number;
  /** How long past a limit's reset a wake waits for an agent whose CLI goes on by itself then. */
  limitContinueGraceMs: number;
  log(line: string): void;
}

export const DEFAULT_WAKE_OPTIONS: Omit<WakeOptions, 'log'> = {
  // Gemini CLI takes an Enter that comes soon after a paste as a newline (150 ms was too soon on a loaded machine).
  submitDelayMs: 500,
  confirmMs: 20_000,
  // A person who just typed into the agent, or started it and types its first command at once, may type on.
  keysQuietMs: 2_000,
  retryBaseMs: 1_000,
  maxAttempts: 5,
  recheckMs: 3_000,
  // Claude Code goes on 30–90 s after the reset, which its screen names only to the minute (up to 60 s early).
  limitContinueGraceMs: 180_000,
};

/**
 * Delivers pending inbox messages to agents (typed into their terminals, or through their CLI's
 * channel: see wakeDelivery.ts), but only when the agent is ready and neither it nor its account is
 * held by the person: never while busy, starting, exited, limited or out of quota (it waits for the
 * reset), never into a dialog, and only where its screen positively shows the empty prompt. One wake
 * at a time per agent; messages arriving meanwhile join the next wake. A wake typed in but not taken
 * up by the agent is reported, never typed again blindly.
 */
export class AgentWakeService {
  private readonly delivering = new Set<string>();
  private readonly timers = new Map<string, NodeJS.Timeout>();
  /** Wakes (by agent) held past a limit's reset for the CLI's own continuation, until that is seen. */
  private readonly awaitingContinuation = new Map<string, string>();
  private stopped = false;

  constructor(
    private readonly locator: Locator,
    private readonly stores: ProjectStores,
    private readonly events: EventBus,
    private readonly inbox: MediatedInbox,
    private readonly delivery: WakeDelivery,
    private readonly holds: WakeHolds,
    private readonly options: WakeOptions,
  ) {}

  /** Looks for a wake whenever mail arrives, a session becomes ready or an agent's wakes are released; returns the unsubscribe. */
  listen(): () => void {
    return this.events.onEvent((event) => {
      if (event.name === 'agentInboxChanged' && event.message.state === 'pending') this.schedule(event.projectId, event.message.agentId);
      if (event.name === 'agentSessionChanged' && event.session.state === 'busy') this.continuationSeen(event.projectId, event.session.agentId);
      if (event.name === 'agentSessionChanged' && event.session.state === 'ready') this.schedule(event.projectId, event.session.agentId);
      if (event.name === 'agentChanged' && event.agent && !event.agent.wakesHeld) this.schedule(event.projectId, event.agentId);
      // An account resumed: its agents' waiting messages go out (scheduling the others changes nothing).
      if (event.name === 'appSettingsChanged') this.startAll();
    });
  }

  /** Boot: a wake cut off mid-delivery goes back to waiting; every agent with mail is scheduled. */
  reconcile(store: ProjectStore): number {
    const cut = store.wakes.delivering();
    for (const wake of cut) this.change(store, wake.id, { state: 'waiting', lastError: 'delivery cut off by a restart' });
    for (const agentId of store.inbox.agentsWithPending()) this.ensureWake(store, agentId);
    return cut.length;
  }

  startAll(): void {
    for (const store of this.locator.registeredStores()) {
      for (const agentId of store.inbox.agentsWithPending()) this.schedule(store.projectId, agentId);
    }
  }

  schedule(projectId: string, agentId: string): void {
    if (this.stopped || !this.stores.isOpen(projectId)) return;
    const store = this.stores.get(projectId);
    // Called on every post: a look at one row, however long the queue is.
    if (!store.agents.get(agentId) || !store.inbox.hasPending(agentId)) return;
    this.ensureWake(store, agentId);
    this.deliver(store, agentId, false).catch((error: unknown) => this.options.log(`waking ${agentId} failed: ${String(error)}`));
  }

  /**
   * A person's wake: deliver now if the agent's screen shows its empty prompt, whatever holds,
   * backoff or a usage limit say (a limit read from the screen may be mistaken, and the person decides).
   */
  async wakeNow(agentId: string): Promise<number> {
    const { store } = this.locator.agent(agentId);
    if (!store.inbox.hasPending(agentId)) return 0;
    this.ensureWake(store, agentId);
    return this.deliver(store, agentId, true);
  }

  stop(): void {
    this.stopped = true;
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
  }

  private ensureWake(store: ProjectStore, agentId: string): Wake {
    const open = store.wakes.open(agentId);
    if (open) return open;
    const wake = store.wakes.insert(newId('w'), agentId, Date.now());
    this.announce(wake);
    return wake;
  }

  /** Returns how many messages were delivered. */
  private async deliver(store: ProjectStore, agentId: string, byHand: boolean): Promise<number> {
    if (this.delivering.has(agentId)) return 0;
    const wake = store.wakes.open(agentId);
    const agent = store.agents.get(agentId);
    if (!wake || !agent || wake.state !== 'waiting') return 0;
    if (!byHand && (agent.wakesHeld || this.holds.isPaused(agent.profileId))) return 0;
    const session = store.sessions.latest(agentId);
    if (!byHand && !this.readyNow(store, wake, session)) return 0;
    if (!store.inbox.hasPending(agentId)) return this.nothingToDeliver(store, wake);
    this.delivering.add(agentId);
    let typed: { delivered: number } | { notReady: string };
    try {
      typed = await this.typeWake(store, wake, agentId, byHand);
    } finally {
      this.delivering.delete(agentId);
    }
    if ('notReady' in typed) {
      if (byHand) fail('invalid-state', `The agent is ${typed.notReady}; Drover types into a terminal only when its agent is ready at an empty prompt.`);
      // Its state says ready but its screen does not (a dialog the hooks missed, text being typed).
      this.retryAt(store.projectId, agentId, Date.now() + this.options.recheckMs);
      return 0;
    }
    // Messages that arrived while this wake was typing go in the next one.
    if (typed.delivered > 0) this.schedule(store.projectId, agentId);
    return typed.delivered;
  }

  /**
   * Types the wake of every pending message, if the agent is at its empty prompt (the session's
   * answer is the one readiness check). An attempt counts from the first key typed. A person's wake
   * goes in however recently they typed: the click was theirs.
   */
  private async typeWake(store: ProjectStore, wake: Wake, agentId: string, byHand: boolean): Promise<{ delivered: number } | { notReady: string }> {
    let attempt: Wake | undefined;
    try {
      if (this.stopped || !this.stores.isOpen(store.projectId)) return { delivered: 0 };
      // The wake delivers every pending message, but names only the first few (read together, with no wait in between).
      const messageIds = store.inbox.pendingIds(agentId);
      if (messageIds.length === 0) return { delivered: this.nothingToDeliver(store, wake) };
      const named = store.inbox.firstPending(agentId, WAKE_NAMES_AT_MOST);
      const senders = new Map(store.agents.list().map((a) => [a.id, a]));
      const compose = (style: WakeStyle) => composeWakeText(named, messageIds.length, senders, style);
      const timings = byHand ? { ...this.options, keysQuietMs: 0 } : this.options;
      const typing = await this.delivery.deliver(agentId, compose, timings, () => {
        attempt = this.change(store, wake.id, { state: 'delivering', messageIds, attempts: wake.attempts + 1 });
      });
      if (this.stopped || !this.stores.isOpen(store.projectId)) return { delivered: 0 };
      if (typing.outcome === 'not-ready') return { notReady: typing.why };
      if (!attempt) throw new Error(`typing reported ${typing.outcome} without typing`);
      if (typing.outcome === 'not-taken') {
        this.failAttempt(store, attempt, typing.why);
        return { delivered: 0 };
      }
      this.inbox.markDelivered(store, attempt.messageIds);
      if (typing.outcome === 'unconfirmed') {
        this.options.log(`wake ${attempt.id} of agent ${agentId} was not taken up: ${typing.why}`);
        this.change(store, wake.id, { state: 'failed', lastError: typing.why });
        return { delivered: 0 };
      }
      this.change(store, wake.id, { state: 'delivered', lastError: null, notBefore: null });
      return { delivered: messageIds.length };
    } catch (error) {
      const why = error instanceof Error ? error.message : String(error);
      if (attempt && this.stores.isOpen(store.projectId)) this.failAttempt(store, attempt, why);
      else this.options.log(`waking ${agentId} failed before typing: ${why}`);
      return { delivered: 0 };
    }
  }

  /** The messages were read before a wake typed them: it has nothing left to do. */
  private nothingToDeliver(store: ProjectStore, wake: Wake): 0 {
    this.change(store, wake.id, { state: 'delivered', messageIds: [] });
    return 0;
  }

  /** True when Drover may type now; otherwise arranges to try again when that may change. */
  private readyNow(store: ProjectStore, wake: Wake, session: AgentSession | undefined): boolean {
    const now = Date.now();
    // A new turn would only hit the limit again: wait for the reset (a limited session, or a spent quota).
    const resetsAt = session ? limitLiftsAt(session, now) : null;
    if (session?.state === 'limited' || resetsAt !== null) {
      // A CLI that goes on by itself at the reset gets that moment to itself: the wake never lands on its continuation.
      const grace = this.delivery.continuesAtLimitReset(wake.agentId) ? this.options.limitContinueGraceMs : 0;
      const wakeAt = resetsAt === null ? null : resetsAt + grace;
      if (grace > 0 && wakeAt !== null) this.awaitingContinuation.set(wake.agentId, wake.id);
      if (wakeAt !== null && wake.notBefore !== wakeAt) this.change(store, wake.id, { notBefore: wakeAt });
      if (wakeAt !== null) this.retryAt(store.projectId, wake.agentId, wakeAt);
      return false;
    }
    // An agent asking the person something is waiting for *them*: Enter would answer its prompt.
    if (session?.state !== 'ready' || session.needsInput) return false;
    if (wake.notBefore !== null && wake.notBefore > now) {
      this.retryAt(store.projectId, wake.agentId, wake.notBefore);
      return false;
    }
    return true;
  }

  /** The CLI went on by itself after its limit: its wake no longer waits out the grace, only that turn's end. */
  private continuationSeen(projectId: string, agentId: string): void {
    const wakeId = this.awaitingContinuation.get(agentId);
    if (wakeId === undefined) return;
    this.awaitingContinuation.delete(agentId);
    if (!this.stores.isOpen(projectId)) return;
    const store = this.stores.get(projectId);
    if (store.wakes.open(agentId)?.id === wakeId) this.change(store, wakeId, { notBefore: null });
  }

  private failAttempt(store: ProjectStore, wake: Wake, error: string): void {
    this.options.log(`wake ${wake.id} of agent ${wake.agentId} failed (attempt ${wake.attempts}): ${error}`);
    if (wake.attempts >= this.options.maxAttempts) {
      this.change(store, wake.id, { state: 'failed', lastError: error });
      return;
    }
    const notBefore = Date.now() + this.options.retryBaseMs * 2 ** (wake.attempts - 1);
    this.change(store, wake.id, { state: 'waiting', lastError: error, notBefore });
    this.retryAt(store.projectId, wake.agentId, notBefore);
  }

  private retryAt(projectId: string, agentId: string, at: number): void {
    clearTimeout(this.timers.get(agentId));
    const timer = setTimeout(() => {
      this.timers.delete(agentId);
      this.schedule(projectId, agentId);
    }, Math.max(0, at - Date.now()));
    timer.unref();
    this.timers.set(agentId, timer);
  }

  private change(store: ProjectStore, wakeId: string, change: WakeChange): Wake {
    const wake = store.wakes.update(wakeId, change, Date.now());
    this.announce(wake);
    return wake;
  }

  private announce(wake: Wake): void {
    this.events.emit({ name: 'agentWakeChanged', seq: wake.seq, projectId: wake.projectId, wake });
  }
}
