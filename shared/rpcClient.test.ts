import { afterEach, describe, expect, it, vi } from 'vitest';
import type { RequestFrame } from './protocol';
import { RpcClient } from './rpcClient';

describe('RpcClient across a dropped connection', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  const client = (holdMs = 60_000) => {
    const sent: RequestFrame[] = [];
    const rpc = new RpcClient((frame) => sent.push(frame), {}, { keyPrefix: 'page-', holdMs });
    return { rpc, sent };
  };
  const settled = (promise: Promise<unknown>) => promise.then(
    () => 'resolved',
    (error: Error) => `rejected: ${error.message}`,
  );

  it('keys only the calls that change work state', () => {
    const { rpc, sent } = client();
    void rpc.call('cancelTask', { taskId: 't-0mx5e41yf9aeeg5' });
    void rpc.call('listProjects', {});
    void rpc.call('watchTaskOutput', { taskId: 't-0mx5e41yf9aeeg5' });
    expect(sent.map((frame) => [frame.method, frame.key])).toEqual([
      ['cancelTask', 'page-1'],
      ['listProjects', undefined],
      ['watchTaskOutput', undefined],
    ]);
  });

  it('fails the calls on the connection itself at once, and sends the others again, with their keys, once reconnected', async () => {
    const { rpc, sent } = client();
    const cancel = rpc.call('cancelTask', { taskId: 't-0mx5e41yf9aeeg5' });
    const projects = rpc.call('listProjects', {});
    const watch = settled(rpc.call('watchTaskOutput', { taskId: 't-0mx5e41yf9aeeg5' }));
    rpc.connectionLost('Connection to Drover lost');
    expect(await watch).toBe('rejected: Connection to Drover lost');
    sent.length = 0;
    rpc.reconnected();
    expect(sent.map((frame) => [frame.id, frame.method, frame.key])).toEqual([
      [1, 'cancelTask', 'page-1'],
      [2, 'listProjects', undefined],
    ]);
    rpc.receive({ t: 'res', id: 2, ok: true, result: { seq: 3, projects: [] } });
    expect(await projects).toEqual({ seq: 3, projects: [] });
    rpc.receive({ t: 'res', id: 1, ok: false, error: { code: 'not-found', message: 'No task t-0mx5e41yf9aeeg5' } });
    await expect(cancel).rejects.toThrow('No task t-0mx5e41yf9aeeg5');
  });

  it('fails the held calls when the connection does not come back in time, counted from the drop (failed reconnects do not extend it)', async () => {
    vi.useFakeTimers();
    const { rpc } = client(5_000);
    const cancel = settled(rpc.call('cancelTask', { taskId: 't-0mx5e41yf9aeeg5' }));
    rpc.connectionLost('Connection to Drover lost');
    vi.advanceTimersByTime(3_000);
    // A reconnect attempt that failed: the transport reports the loss again.
    rpc.connectionLost('Connection to Drover lost');
    vi.advanceTimersByTime(2_000);
    expect(await cancel).toBe('rejected: Connection to Drover lost, and not back within 5 s');
  });

  it('without a drop policy (a one-shot command) fails every call at the drop', async () => {
    const rpc = new RpcClient(() => undefined);
    const cancel = settled(rpc.call('cancelTask', { taskId: 't-0mx5e41yf9aeeg5' }));
    rpc.connectionLost('Drover closed the connection.');
    expect(await cancel).toBe('rejected: Drover closed the connection.');
  });
});
