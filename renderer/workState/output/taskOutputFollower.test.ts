import { describe, expect, it } from 'vitest';
import type { MethodName, MethodParams, MethodResult } from '../../../shared/contract';
import { BaseFakeBridge, settle } from '../../testing/fakeBridge';
import { TaskOutputFollower, TAIL_BYTES, type FollowerStatus } from './taskOutputFollower';

/** A host whose log (ASCII, so bytes = characters) and push stream the test controls. */
class FakeLogHost extends BaseFakeBridge {
  log = '';
  readonly watches: string[] = [];
  readonly acks: number[] = [];

  async call<M extends MethodName>(method: M, params: MethodParams<M>): Promise<MethodResult<M>> {
    await settle();
    if (method === 'ackTaskOutput') this.acks.push((params as MethodParams<'ackTaskOutput'>).bytes);
    if (method === 'watchTaskOutput') {
      this.watches.push('watch');
      return { taskId: 't-aaaaaa' } as MethodResult<M>;
    }
    if (method === 'readTaskOutput') {
      const { offset, tailBytes, maxBytes } = params as MethodParams<'readTaskOutput'>;
      const start = tailBytes !== undefined ? Math.max(0, this.log.length - tailBytes) : (offset ?? 0);
      const end = maxBytes !== undefined ? Math.min(this.log.length, start + maxBytes) : this.log.length;
      return { taskId: 't-aaaaaa', offset: start, nextOffset: end, size: this.log.length, data: this.log.slice(start, end) } as MethodResult<M>;
    }
    return { taskId: 't-aaaaaa' } as MethodResult<M>;
  }

  write(data: string, push = true): void {
    this.log += data;
    if (push) this.pushOutput({ taskId: 't-aaaaaa', projectId: 'p-aaaaaa', data: new TextEncoder().encode(data) });
  }
}

function follow(host: FakeLogHost) {
  let shown = '';
  const statuses: FollowerStatus[] = [];
  const follower = new TaskOutputFollower(
    host,
    't-aaaaaa',
    { reset: (text) => (shown = text), append: (text) => (shown += text) },
    (status) => statuses.push(status),
  );
  follower.start();
  return { follower, shown: () => shown, statuses };
}

describe('TaskOutputFollower', () => {
  it('shows the log, then each pushed chunk exactly once, even when chunks race the first read', async () => {
    const host = new FakeLogHost();
    host.write('line 1\r\n', false);
    const view = follow(host);
    host.write('line 2\r\n');
    for (let i = 0; i < 5; i++) await settle();
    host.write('line 3\r\n');
    host.write('line 4\r\n');
    for (let i = 0; i < 10; i++) await settle();
    expect(view.shown()).toBe('line 1\r\nline 2\r\nline 3\r\nline 4\r\n');
    view.follower.stop();
  });

  it('acknowledges the pushed bytes in steps, so the host keeps sending', async () => {
    const host = new FakeLogHost();
    const view = follow(host);
    for (let i = 0; i < 5; i++) await settle();
    host.pushOutput({ taskId: 't-aaaaaa', projectId: 'p-aaaaaa', data: new TextEncoder().encode('é'.repeat(3_000)) });
    await settle();
    expect(host.acks).toEqual([6_000]);
    view.follower.stop();
  });

  it('loads the tail of a large log first, and earlier output on request', async () => {
    const host = new FakeLogHost();
    host.write('x'.repeat(TAIL_BYTES + 10), false);
    const view = follow(host);
    for (let i = 0; i < 5; i++) await settle();
    expect(view.shown()).toHaveLength(TAIL_BYTES);
    expect(view.statuses.at(-1)?.earlierBytes).toBe(10);
    await view.follower.loadEarlier();
    expect(view.shown()).toHaveLength(TAIL_BYTES + 10);
    expect(view.statuses.at(-1)?.earlierBytes).toBe(0);
    view.follower.stop();
  });

  it('watches again after a reconnect and catches up on what it missed', async () => {
    const host = new FakeLogHost();
    const view = follow(host);
    for (let i = 0; i < 5; i++) await settle();
    host.setConnection('lost');
    host.write('while away\r\n', false);
    host.setConnection('open');
    for (let i = 0; i < 10; i++) await settle();
    expect(host.watches).toHaveLength(2);
    expect(view.shown()).toBe('while away\r\n');
    view.follower.stop();
  });
});
