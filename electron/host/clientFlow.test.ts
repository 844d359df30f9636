import { describe, expect, it } from 'vitest';
import type { ResponseFrame } from '../../shared/protocol';
import { settle } from '../../renderer/testing/fakeBridge';
import { ClientFlow, FLOW_LIMITS, type ClientChannel } from './clientFlow';

/** A client channel whose reading side the test plays: written frames wait until it reads them. */
class FakeChannel implements ClientChannel {
  readonly unread: { text: string; flushed: () => void }[] = [];
  readonly read: string[] = [];
  paused = false;
  disconnected = false;

  write(text: string, flushed: () => void): void {
    this.unread.push({ text, flushed });
  }
  backlogBytes(): number {
    return this.unread.reduce((sum, frame) => sum + frame.text.length, 0);
  }
  pauseInput(): void {
    this.paused = true;
  }
  resumeInput(): void {
    this.paused = false;
  }
  disconnect(): void {
    this.disconnected = true;
  }
  /** The client reads everything written so far. */
  readAll(): void {
    for (const frame of this.unread.splice(0)) {
      this.read.push(frame.text);
      frame.flushed();
    }
  }
}

const LIMITS = { ...FLOW_LIMITS, maxInFlight: 4, holdRequestsAbove: 1000, maxWaitingRequestBytes: 2000, maxUnreadPushBytes: 5000 };
const request = (id: number) => Buffer.from(JSON.stringify({ t: 'req', id, method: 'getStatus', params: {} }));

function flowWith(answer: (raw: { id: number }) => ResponseFrame | Promise<ResponseFrame>) {
  const channel = new FakeChannel();
  const handled: number[] = [];
  const flow = new ClientFlow(
    channel,
    async (raw) => {
      handled.push((raw as { id: number }).id);
      return answer(raw as { id: number });
    },
    () => undefined,
    LIMITS,
  );
  return { channel, flow, handled };
}

describe('ClientFlow', () => {
  it('takes up requests only while the client reads: a flood of large replies never piles up', async () => {
    const { channel, flow, handled } = flowWith(({ id }) => ({ t: 'res', id, ok: true, result: 'r'.repeat(600) }));
    for (let id = 1; id <= 20; id++) flow.receive(request(id));
    await settle();
    // Four taken up (the in-flight cap); their unread replies are past the hold mark, so the rest
    // wait for the client to read, and nobody is cut off.
    expect(handled).toEqual([1, 2, 3, 4]);
    await settle();
    expect(handled).toHaveLength(4);
    expect(channel.disconnected).toBe(false);
    while (channel.unread.length > 0) {
      channel.readAll();
      await settle();
    }
    expect(handled).toHaveLength(20);
    expect(channel.read.map((text) => (JSON.parse(text) as { id: number }).id)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
  });

  it('answers at most maxInFlight requests at once; long waits hold back only what comes after them', async () => {
    const release: (() => void)[] = [];
    const { channel, flow, handled } = flowWith(({ id }) => new Promise((resolve) => release.push(() => resolve({ t: 'res', id, ok: true, result: null }))));
    for (let id = 1; id <= 6; id++) flow.receive(request(id));
    await settle();
    expect(handled).toEqual([1, 2, 3, 4]);
    release.shift()?.();
    await settle();
    channel.readAll();
    await settle();
    expect(handled).toEqual([1, 2, 3, 4, 5]);
  });

  it('stops reading from a client while too many of its requests wait, and reads again once they are taken up', async () => {
    const { channel, flow } = flowWith(({ id }) => ({ t: 'res', id, ok: true, result: 'r'.repeat(2000) }));
    for (let id = 1; id <= 60; id++) flow.receive(request(id));
    expect(channel.paused).toBe(true);
    while (channel.unread.length > 0 || channel.paused) {
      channel.readAll();
      await settle();
    }
    expect(channel.paused).toBe(false);
    expect(channel.read).toHaveLength(60);
  });

  it('disconnects a client only for pushes it leaves unread, never for its own replies', async () => {
    const { channel, flow } = flowWith(({ id }) => ({ t: 'res', id, ok: true, result: 'r'.repeat(4000) }));
    for (let id = 1; id <= 3; id++) flow.receive(request(id));
    await settle();
    expect(channel.disconnected).toBe(false);
    const push = () => flow.push({ t: 'out', chunk: { taskId: 't-aaaaaa', projectId: 'p-aaaaaa', data: 'o'.repeat(1000) } });
    for (let i = 0; i < 4; i++) push();
    expect(channel.disconnected).toBe(false);
    channel.readAll();
    for (let i = 0; i < 4; i++) push();
    expect(channel.disconnected).toBe(false);
    push();
    expect(channel.disconnected).toBe(true);
  });

  it('answers every malformed frame with an error, one reply per frame', async () => {
    const { channel, flow, handled } = flowWith(({ id }) => ({ t: 'res', id, ok: true, result: null }));
    flow.receive(Buffer.from('{nope'));
    flow.receive(new Error('frame too large'));
    flow.receive(Buffer.from(`${'['.repeat(100)}${']'.repeat(100)}`));
    flow.receive(request(9));
    await settle();
    channel.readAll();
    const replies = channel.read.map((text) => JSON.parse(text) as ResponseFrame);
    expect(replies.map((reply) => reply.ok)).toEqual([false, false, false, true]);
    expect(replies.slice(0, 3).every((reply) => !reply.ok && reply.error.code === 'bad-request' && reply.id === null)).toBe(true);
    expect(handled).toEqual([9]);
  });
});
