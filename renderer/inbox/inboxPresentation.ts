import type { Agent } from '../../shared/entities/agents';
import type { InboxMessage } from '../../shared/entities/inbox';
import type { AgentSession } from '../../shared/entities/sessions';
import type { Wake } from '../../shared/entities/wake';
import { countOf } from '../../shared/plural';
import { agentStatus } from '../format/agentPresentation';
import { formatClockTime } from '../format/clockTime';

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

/**
 * The inbox's count line: how many were new to the person (as the pane counted them), then the
 * words each message's own state shows ("Delivered" is typed into the terminal; "Read" is what
 * the agent read through read_inbox or drover inbox).
 */
export function inboxSummary(messages: readonly Pick<InboxMessage, 'state'>[], fresh: number): string {
  if (messages.length === 0) return 'No messages yet.';
  const states = (Object.keys(MESSAGE_STATE_LABEL) as InboxMessage['state'][])
    .map((state) => ({ state, count: messages.filter((message) => message.state === state).length }))
    .filter(({ count }) => count > 0)
    .map(({ state, count }) => `${count} ${MESSAGE_STATE_LABEL[state].toLowerCase()}`);
  return `${countOf(messages.length, 'message')}${fresh > 0 ? `, ${fresh} new` : ''}: ${states.join(', ')}.`;
}

/** Who a message is from, as the inbox shows it. */
export function senderName(message: InboxMessage, agentsById: Readonly<Record<string, Agent>>): string {
  if (message.kind === 'task-result') return 'Drover';
  if (message.fromAgentId === null) return 'You';
  return agentsById[message.fromAgentId]?.name ?? message.fromAgentId;
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
  /** The account the agent spends, when the person paused it. */
  pausedAccount?: string | null;
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
  const { agent, wake, pending, pausedAccount } = subject;
  const waiting = pending === 1 ? '1 message waits' : `${pending} messages wait`;
  if (agent.wakesHeld) {
    const detail = pending > 0 ? `${waiting} until you resume wakes or press Wake now.` : 'New messages wait until you resume wakes.';
    return { label: 'Wakes held', tone: 'held', detail };
  }
  if (pausedAccount) {
    const detail = pending > 0 ? `${waiting} until you resume ${pausedAccount} or press Wake now.` : `New messages wait until you resume ${pausedAccount}.`;
    return { label: `${pausedAccount} paused`, tone: 'held', detail };
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
