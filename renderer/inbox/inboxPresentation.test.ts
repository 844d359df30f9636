import { describe, expect, it } from 'vitest';
import type { InboxMessage } from '../../shared/entities/inbox';
import type { AgentSession } from '../../shared/entities/sessions';
import type { Wake } from '../../shared/entities/wake';
import { formatClockTime } from '../format/clockTime';
import { makeAgent, makeMessage, makeSession, makeWake } from '../testing/fixtures';
import { inboxSummary, senderName, wakeStatus, type WakeSubject } from './inboxPresentation';

const NOW = new Date(2025, 4, 6, 15, 0).getTime();

const agent = (id: string, name: string, wakesHeld = false) => makeAgent({ id, name, wakesHeld });
const message = (id: string, changes: Partial<InboxMessage>) => makeMessage({ id, agentId: 'a-archit', ...changes });
const wake = (changes: Partial<Wake>) => makeWake({ agentId: 'a-archit', messageIds: ['m-1'], updatedAt: NOW - 60_000, ...changes });
const session = (state: AgentSession['state'], limitResetsAt: number | null = null) =>
  makeSession({ agentId: 'a-archit', state, pid: 1, limitResetsAt });

describe('senderName', () => {
  const agents = { 'a-backnd': agent('a-backnd', 'Backend') };
  it('names Drover for task results, the person for their notes, and agents by name', () => {
    expect(senderName(message('m-1', { kind: 'task-result' }), agents)).toBe('Drover');
    expect(senderName(message('m-1', { kind: 'note' }), agents)).toBe('You');
    expect(senderName(message('m-1', { kind: 'reply', fromAgentId: 'a-backnd' }), agents)).toBe('Backend');
    expect(senderName(message('m-1', { kind: 'question', fromAgentId: 'a-gone00' }), agents)).toBe('a-gone00');
  });
});

describe('wakeStatus', () => {
  const subject = (changes: Partial<WakeSubject>): WakeSubject => ({
    agent: { name: 'Architect', wakesHeld: false },
    session: session('ready'),
    wake: wake({}),
    pending: 1,
    ...changes,
  });

  it('says when there has never been a wake', () => {
    expect(wakeStatus(subject({ wake: undefined, pending: 0 }), NOW)).toEqual({ label: 'No wakes yet', tone: 'idle', detail: null });
  });

  it('says what a waiting wake waits for', () => {
    expect(wakeStatus(subject({ session: session('busy'), pending: 2 }), NOW)).toEqual({
      label: 'Waiting to deliver 2 messages',
      tone: 'waiting',
      detail: 'Delivers when Architect is ready (now busy).',
    });
    expect(wakeStatus(subject({ session: undefined }), NOW).detail).toBe('Delivers when Architect is ready (now not started).');
    const resetsAt = NOW + 3_600_000;
    const limited = wakeStatus(subject({ session: session('limited', resetsAt), wake: wake({ notBefore: resetsAt }) }), NOW);
    expect(limited.detail).toBe(`Usage limit: delivers after it resets at ${formatClockTime(resetsAt, NOW)}.`);
    const retry = wakeStatus(subject({ wake: wake({ notBefore: NOW + 2_000, attempts: 2, lastError: 'no live session' }) }), NOW);
    expect(retry.detail).toBe(`Retries at ${formatClockTime(NOW + 2_000, NOW)} (attempt 2 failed: no live session).`);
    const cutOff = wakeStatus(subject({ session: session('exited'), wake: wake({ lastError: 'delivery cut off by a restart' }) }), NOW);
    expect(cutOff.detail).toBe('Delivers when Architect is ready (now exited). Last attempt: delivery cut off by a restart.');
  });

  it('has nothing to say about a waiting wake whose messages were all handed over another way', () => {
    expect(wakeStatus(subject({ pending: 0 }), NOW)).toEqual({ label: 'Nothing to deliver', tone: 'idle', detail: null });
  });

  it('reports delivery, and a failure with its attempts and last error', () => {
    expect(wakeStatus(subject({ wake: wake({ state: 'delivering', attempts: 1 }) }), NOW).detail).toBe(
      'Typing 1 message into the terminal (attempt 1).',
    );
    expect(wakeStatus(subject({ wake: wake({ state: 'delivered', messageIds: ['m-1', 'm-2'] }), pending: 0 }), NOW)).toEqual({
      label: 'Delivered',
      tone: 'delivered',
      detail: `2 messages at ${formatClockTime(NOW - 60_000, NOW)}.`,
    });
    expect(wakeStatus(subject({ wake: wake({ state: 'failed', attempts: 5, lastError: 'write EPIPE' }) }), NOW)).toEqual({
      label: 'Failed',
      tone: 'failed',
      detail: 'Gave up after 5 attempts: write EPIPE.',
    });
  });

  it('puts held wakes first, whatever the wake says', () => {
    const held = { name: 'Architect', wakesHeld: true };
    expect(wakeStatus(subject({ agent: held, pending: 3 }), NOW)).toEqual({
      label: 'Wakes held',
      tone: 'held',
      detail: '3 messages wait until you resume wakes or press Wake now.',
    });
    expect(wakeStatus(subject({ agent: held, pending: 0 }), NOW).detail).toBe('New messages wait until you resume wakes.');
    expect(wakeStatus(subject({ pending: 2, pausedAccount: 'Claude Code' }), NOW)).toEqual({
      label: 'Claude Code paused',
      tone: 'held',
      detail: '2 messages wait until you resume Claude Code or press Wake now.',
    });
  });
});

describe('inboxSummary', () => {
  it('counts the messages new to the person as the pane did, then in the words their states show', () => {
    const delivered = { state: 'delivered' as const };
    expect(inboxSummary(Array.from({ length: 6 }, () => delivered), 4)).toBe('6 messages, 4 new: 6 delivered.');
    expect(inboxSummary([{ state: 'pending' }, delivered, { state: 'read' }, { state: 'read' }], 0)).toBe('4 messages: 1 waiting for wake, 1 delivered, 2 read.');
    expect(inboxSummary([], 0)).toBe('No messages yet.');
  });
});
