import type { InboxMessage } from '../../../shared/entities/inbox';
import { messageBodyWithin } from '../../../shared/messageBody';
import { fail } from '../errors';
import type { EventBus } from '../events/eventBus';
import { newId } from '../ids';
import type { Locator } from '../locate';
import { pageOf } from '../paging';
import type { ProjectRegistry } from '../projects/projectRegistry';
import type { ProjectStore, ProjectStores } from '../storage/projectStores';

export interface PostMessage {
  agentId: string;
  kind: InboxMessage['kind'];
  body: string;
  taskId?: string | null;
  fromAgentId?: string | null;
  replyTo?: string | null;
  /** Written by the person who will look at the inbox: never new to them. */
  byPerson?: boolean;
}

/** An ask_agent call waiting for its reply. */
interface ReplyWaiter {
  /** Whether the asker can still take the reply: not once its connection's agent identity ended. */
  takes(): boolean;
  receive(reply: InboxMessage | null): void;
}

/**
 * Each agent's inbox. Drover mediates every message: it is stored first, then announced; the wake
 * service hears of a pending message through that event and types it in once the agent is ready.
 */
export class MediatedInbox {
  private readonly replyWaiters = new Map<string, Set<ReplyWaiter>>();

  constructor(
    private readonly locator: Locator,
    private readonly projects: ProjectRegistry,
    private readonly stores: ProjectStores,
    private readonly events: EventBus,
  ) {}

  /** Every message goes in here: one Drover writes itself (a check's log, a task's result) is cut to what a message holds, saying so. */
  post(projectId: string, input: PostMessage): InboxMessage {
    const store = this.stores.get(projectId);
    const createdAt = Date.now();
    const message = store.inbox.insertMessage({
      id: newId('m'),
      agentId: input.agentId,
      kind: input.kind,
      body: messageBodyWithin(input.body),
      taskId: input.taskId ?? null,
      fromAgentId: input.fromAgentId ?? null,
      replyTo: input.replyTo ?? null,
      createdAt,
      seenAt: input.byPerson ? createdAt : null,
    });
    // A reply a waiting ask_agent call takes is delivered by that call, so it needs no wake: it is
    // handed over before anything is announced, so no wake is ever scheduled for it.
    const takers = message.kind === 'reply' && message.replyTo ? this.takeWaiters(message.replyTo) : [];
    const delivered = takers.length > 0 ? store.inbox.setMessageState(message.id, 'delivered', Date.now()) : message;
    this.announce(message);
    if (delivered !== message) this.announce(delivered);
    for (const waiter of takers) waiter.receive(delivered);
    return delivered;
  }

  /** A page of an agent's messages, oldest first, continued after the message `after`. */
  list(agentId: string, request: { unreadOnly: boolean; after?: string | undefined; limit?: number | undefined }): { messages: InboxMessage[]; next: string | null } {
    const { store } = this.locator.agent(agentId);
    const rows = store.inbox.oldestFirst({ agentId, unreadOnly: request.unreadOnly, after: request.after });
    if (!rows) fail('not-found', `No message ${request.after} in this project to continue the list after.`);
    const { items, next } = pageOf(rows, request.limit);
    return { messages: items, next };
  }

  /** Marks the given messages (default: all unread) of an agent as read. */
  markRead(agentId: string, messageIds?: string[]): InboxMessage[] {
    const { store } = this.locator.agent(agentId);
    const wanted = messageIds && new Set(messageIds);
    const unread = store.inbox.messages(agentId).filter((m) => m.state !== 'read' && (!wanted || wanted.has(m.id)));
    const read = store.transaction(() => unread.map((m) => store.inbox.setMessageState(m.id, 'read', Date.now())));
    read.forEach((message) => this.announce(message));
    return read;
  }

  /** A person saw the given messages of the agent's inbox; returns those that were new to them. */
  markSeen(agentId: string, messageIds: string[]): InboxMessage[] {
    const { store } = this.locator.agent(agentId);
    const unknown = messageIds.find((id) => store.inbox.message(id)?.agentId !== agentId);
    if (unknown) fail('not-found', `No message ${unknown} in this agent's inbox.`);
    const now = Date.now();
    const seen = store.transaction(() => messageIds.filter((id) => store.inbox.markSeen(id, now)).map((id) => store.inbox.message(id) as InboxMessage));
    seen.forEach((message) => this.announce(message));
    return seen;
  }

  markDelivered(store: ProjectStore, messageIds: string[]): void {
    const delivered = store.transaction(() =>
      messageIds.filter((id) => store.inbox.message(id)?.state === 'pending').map((id) => store.inbox.setMessageState(id, 'delivered', Date.now())),
    );
    delivered.forEach((message) => this.announce(message));
  }

  /** A message to an agent named by id or by name, in the sender's project. */
  send(input: { projectId: string; to: string; kind: 'question' | 'note'; body: string; fromAgentId?: string | undefined }): InboxMessage {
    this.projects.get(input.projectId);
    const store = this.stores.get(input.projectId);
    const to = store.agents.byIdOrName(input.to);
    if (!to) {
      const names = store.agents.list().map((a) => a.name).join(', ') || 'none yet';
      fail('not-found', `No agent ${input.to} in this project (agents: ${names}).`);
    }
    if (input.fromAgentId && !store.agents.get(input.fromAgentId)) fail('not-found', `No agent with id ${input.fromAgentId} in this project.`);
    // An agent always names itself as the sender (agentAccess): a message without one is the person's.
    return this.post(input.projectId, { agentId: to.id, kind: input.kind, body: input.body, fromAgentId: input.fromAgentId ?? null, byPerson: input.fromAgentId === undefined });
  }

  /** Answers a question: the reply goes to the asker's inbox and to its waiting ask_agent call. */
  reply(input: { questionId: string; body: string; fromAgentId?: string | undefined }): InboxMessage {
    const { store, message: question } = this.locator.message(input.questionId);
    if (question.kind !== 'question') fail('invalid-state', `Message ${input.questionId} is a ${question.kind}, not a question.`);
    if (!question.fromAgentId) fail('invalid-state', 'That question came from a person, not an agent; there is no one to reply to.');
    if (store.inbox.replyTo(question.id)) fail('conflict', `Question ${question.id} has already been answered.`);
    return this.post(store.projectId, {
      agentId: question.fromAgentId,
      kind: 'reply',
      body: input.body,
      fromAgentId: input.fromAgentId ?? question.agentId,
      replyTo: question.id,
    });
  }

  /**
   * Resolves with the reply to `questionId` (now or when it comes), or null after the timeout, when
   * `signal` aborts (the asking client went away) or when the reply comes and the asker no longer
   * `takes` it (its agent identity ended): the reply then stays pending, for a wake.
   */
  awaitReply(questionId: string, timeoutMs: number, signal?: AbortSignal, takes: () => boolean = () => true): Promise<InboxMessage | null> {
    const { store } = this.locator.message(questionId);
    const existing = store.inbox.replyTo(questionId);
    if (existing) return Promise.resolve(this.handOver(store, existing));
    return new Promise((resolve) => {
      const waiters = this.replyWaiters.get(questionId) ?? new Set();
      const receive = (reply: InboxMessage | null) => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', stop);
        resolve(reply);
      };
      const stop = () => {
        waiters.delete(waiter);
        if (waiters.size === 0) this.replyWaiters.delete(questionId);
        receive(null);
      };
      const waiter: ReplyWaiter = { takes, receive };
      const timer = setTimeout(stop, timeoutMs);
      signal?.addEventListener('abort', stop);
      waiters.add(waiter);
      this.replyWaiters.set(questionId, waiters);
    });
  }

  /** The calls that take the reply now; the others' waits end without it. */
  private takeWaiters(questionId: string): ReplyWaiter[] {
    const waiters = [...(this.replyWaiters.get(questionId) ?? [])];
    this.replyWaiters.delete(questionId);
    const takers = waiters.filter((waiter) => waiter.takes());
    for (const waiter of waiters) if (!takers.includes(waiter)) waiter.receive(null);
    return takers;
  }

  /** A reply the asker receives as its call's result needs no wake: it counts as delivered. */
  private handOver(store: ProjectStore, reply: InboxMessage): InboxMessage {
    if (reply.state !== 'pending') return reply;
    const delivered = store.inbox.setMessageState(reply.id, 'delivered', Date.now());
    this.announce(delivered);
    return delivered;
  }


  private announce(message: InboxMessage): void {
    this.events.emit({ name: 'agentInboxChanged', seq: message.seq, projectId: message.projectId, message });
  }
}
