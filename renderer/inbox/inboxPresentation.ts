import { isTaskFinished, type Agent, type AgentSession, type InboxMessage, type Task, type Wake } from '../../shared/entities';
import { agentStatus, formatClockTime } from '../agents/agentPresentation';
import { countOf } from '../../shared/plural';

export const INBOX_KIND_LABEL: Readonly<Record<InboxMessage['kind'], string>> = {
  'task-result': 'Task result',
  question: 'Question',
  reply: 'Reply',
  note: 'Note',
};

/** A pending message waits for Drover to type it into the agent's terminal. */
export const MESSAGE_STATE_LABEL: Readonly<Record<InboxMessage['state'], string>> = {
  pending: 'Waiting for wake',
  delivered: 'Delivered',
  read: 'Read',
};

export function isUnread(message: Pick<InboxMessage, 'state'>): boolean {
  return message.state !== 'read';
}

function newestFirst(a: InboxMessage, b: InboxMessage): number {
  return b.createdAt - a.createdAt || b.seq - a.seq;
}

/** Each agent's messages, newest first. */
export function inboxesByAgent(messages: Iterable<InboxMessage>): ReadonlyMap<string, readonly InboxMessage[]> {
  const byAgent = new Map<string, InboxMessage[]>();
  for (const message of messages) {
    const inbox = byAgent.get(message.agentId);
    if (inbox) inbox.push(message);
    else byAgent.set(message.agentId, [message]);
  }
  for (const inbox of byAgent.values()) inbox.sort(newestFirst);
  return byAgent;
}

/** Who a message is from, as the inbox shows it. */
export function senderName(message: InboxMessage, agentsById: Readonly<Record<string, Agent>>): string {
  if (message.kind === 'task-result') return 'Drover';
  if (message.fromAgentId === null) return 'You';
  return agentsById[message.fromAgentId]?.name ?? message.fromAgentId;
}

export interface AgentWork {
  unread: number;
  queued: number;
  running: number;
  /** Finished tasks whose result the agent has not read yet. */
  unreadResults: readonly Task[];
}

export const NO_WORK: AgentWork = { unread: 0, queued: 0, running: 0, unreadResults: [] };

/**
 * What each agent's pane header counts. A task names its owner by agent id or by name; its result
 * message points back at it through `taskId`.
 */
export function agentWork(
  agent: Agent,
  tasks: readonly Task[],
  inbox: readonly InboxMessage[] | undefined,
  tasksById: Readonly<Record<string, Task>>,
): AgentWork {
  const owned = tasks.filter((task) => task.ownerAgentId === agent.id || task.ownerAgentId === agent.name);
  const unread = (inbox ?? []).filter(isUnread);
  const unreadResults = unread
    .map((message) => (message.kind === 'task-result' && message.taskId ? tasksById[message.taskId] : undefined))
    .filter((task): task is Task => task !== undefined && isTaskFinished(task.state));
  const work = {
    unread: unread.length,
    queued: owned.filter((task) => task.state === 'queued').length,
    running: owned.filter((task) => task.state === 'running' || task.state === 'cancelling').length,
    unreadResults,
  };
  return work.unread + work.queued + work.running === 0 ? NO_WORK : work;
}

export type WakeTone = 'idle' | 'held' | 'waiting' | 'delivering' | 'delivered' | 'failed';

export interface WakeStatus {
  label: string;
  tone: WakeTone;
  detail: string | null;
}

export interface WakeSubject {
  agent: Pick<Agent, 'name' | 'wakesHeld'>;
  session: AgentSession | undefined;
  wake: Wake | undefined;
  /** Messages not yet typed into the terminal. */
  pending: number;
}

function waitingDetail({ agent, session, wake }: WakeSubject & { wake: Wake }, now: number): string {
  if (wake.notBefore !== null && wake.notBefore > now) {
    const at = formatClockTime(wake.notBefore, now);
    if (session?.state === 'limited') return `Usage limit: delivers after it resets at ${at}.`;
    return `Retries at ${at} (attempt ${wake.attempts} failed: ${wake.lastError ?? 'unknown error'}).`;
  }
  const state = session?.state === 'ready' ? null : agentStatus(session, now).label.toLowerCase();
  const until = state ? `Delivers when ${agent.name} is ready (now ${state}).` : `Delivers as soon as ${agent.name} is ready.`;
  return wake.lastError ? `${until} Last attempt: ${wake.lastError}.` : until;
}

/** The wake line of an agent's inbox: what Drover will do with the pending messages, in words. */
export function wakeStatus(subject: WakeSubject, now: number): WakeStatus {
  const { agent, wake, pending } = subject;
  if (agent.wakesHeld) {
    const waiting = pending === 1 ? '1 message waits' : `${pending} messages wait`;
    const detail = pending > 0 ? `${waiting} until you resume wakes or press Wake now.` : 'New messages wait until you resume wakes.';
    return { label: 'Wakes held', tone: 'held', detail };
  }
  if (!wake) return { label: 'No wakes yet', tone: 'idle', detail: null };
  switch (wake.state) {
    case 'waiting':
      // A reply handed straight to the asker's ask_agent call leaves its wake with nothing to type.
      if (pending === 0) return { label: 'Nothing to deliver', tone: 'idle', detail: null };
      return { label: `Waiting to deliver ${countOf(pending, 'message')}`, tone: 'waiting', detail: waitingDetail({ ...subject, wake }, now) };
    case 'delivering':
      return { label: 'Delivering', tone: 'delivering', detail: `Typing ${countOf(wake.messageIds.length, 'message')} into the terminal (attempt ${wake.attempts}).` };
    case 'delivered':
      return {
        label: 'Delivered',
        tone: 'delivered',
        detail: wake.messageIds.length === 0 ? null : `${countOf(wake.messageIds.length, 'message')} at ${formatClockTime(wake.updatedAt, now)}.`,
      };
    case 'failed':
      return { label: 'Failed', tone: 'failed', detail: `Gave up after ${wake.attempts} attempts: ${wake.lastError ?? 'unknown error'}.` };
  }
}
