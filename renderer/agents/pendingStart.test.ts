import { describe, expect, it } from 'vitest';
import type { AgentSession } from '../../shared/entities/sessions';
import { makeSession } from '../testing/fixtures';
import { inputTarget } from './pendingStart';

const running = (id: string, seq: number): AgentSession => makeSession({ id, seq, state: 'ready' });
const ended = (id: string, seq: number): AgentSession => makeSession({ id, seq, state: 'exited', endReason: 'stopped' });

describe('inputTarget', () => {
  it('holds keys from the click of Restart until the new session is in the page, not sending them to the session that is stopping', () => {
    const old = running('s-old', 4);
    expect(inputTarget({ seq: null }, old)).toBe('starting');
    expect(inputTarget({ seq: null }, ended('s-old', 5))).toBe('starting');
    // The answer came (the new session has seq 6) but the page still shows the old one.
    expect(inputTarget({ seq: 6 }, old)).toBe('starting');
    expect(inputTarget({ seq: 6 }, running('s-new', 6))).toBe('live');
  });

  it('ends the hold once both the answer and the session it names are in the page, in either order, and on a newer session too', () => {
    // The event came first: the page shows the session before the answer is in.
    expect(inputTarget({ seq: null }, running('s-new', 6))).toBe('starting');
    // The answer came first: the page shows what it answered.
    expect(inputTarget({ seq: 6 }, running('s-new', 6))).toBe('live');
    expect(inputTarget({ seq: 6 }, running('s-newer', 9))).toBe('live');
    // The session it made ended before it ran: nothing to send the keys to.
    expect(inputTarget({ seq: 6 }, ended('s-new', 7))).toBe('ended');
  });

  it('without a start, follows the session', () => {
    expect(inputTarget(null, running('s-a', 1))).toBe('live');
    expect(inputTarget(null, ended('s-a', 2))).toBe('ended');
    expect(inputTarget(null, undefined)).toBe('ended');
  });
});
