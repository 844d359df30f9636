import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { LineEvent, PreloadBridge } from '../../shared/preloadBridge';
import type { TerminalBytes } from '../../shared/protocol';
import { streamHeaderLength, writeStreamHeader } from '../../shared/streamFrames';
import type { ConnectionState } from './bridgeTypes';
import { createFrameBridge } from './frameTransport';
import { preloadCarrier } from './preloadTransport';

/** A preload as main serves it: the lines the page opened and the frames it sent on them, and what main tells it. */
function fakePreload() {
  const listeners = new Set<(id: number, event: LineEvent) => void>();
  const fake = {
    opened: [] as { id: number; machine: string | null }[],
    sent: [] as { id: number; frame: { id: number; method: string; key?: string } }[],
    closed: [] as number[],
    tell: (id: number, event: LineEvent) => [...listeners].forEach((listener) => listener(id, event)),
    /** The line the page opened last. */
    line: () => fake.opened[fake.opened.length - 1]?.id as number,
  };
  const preload: PreloadBridge = {
    openLine: (id, machine) => fake.opened.push({ id, machine }),
    send: (id, frame) => fake.sent.push({ id, frame: JSON.parse(frame) as { id: number; method: string; key?: string } }),
    closeLine: (id) => fake.closed.push(id),
    onLine: (listener) => (listeners.add(listener), () => listeners.delete(listener)),
    notify: () => undefined,
    onNotificationClick: () => () => undefined,
    setBadgeCount: () => undefined,
    openMachineWindow: () => undefined,
  };
  return { preload, fake };
}

function terminalFrame(data: Uint8Array): Uint8Array {
  const header = { t: 'term' as const, chunk: { agentId: 'a-aaaaaa', projectId: 'p-aaaaaa', at: 3 } };
  const frame = new Uint8Array(streamHeaderLength(header) + data.length);
  frame.set(data, writeStreamHeader(frame, header));
  return frame;
}

describe("the page's frame transport, through the desktop window's preload", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('connects once main reached the host, and hands terminal bytes to the page as bytes', () => {
    const { preload, fake } = fakePreload();
    const bridge = createFrameBridge(preloadCarrier(preload, null));
    const chunks: TerminalBytes[] = [];
    bridge.onTerminal((chunk) => chunks.push(chunk));
    expect(fake.opened).toEqual([{ id: fake.line(), machine: null }]);
    expect(bridge.connectionState()).toBe('connecting');
    fake.tell(fake.line(), { t: 'open' });
    expect(bridge.connectionState()).toBe('open');
    fake.tell(fake.line(), { t: 'frame', frame: terminalFrame(new TextEncoder().encode('caf\u00e9\r\n')) });
    fake.tell(fake.line() + 100, { t: 'frame', frame: terminalFrame(new TextEncoder().encode('another line\r\n')) });
    expect(chunks.map((chunk) => new TextDecoder().decode(chunk.data))).toEqual(['caf\u00e9\r\n']);
  });

  it('on a drop, sends a change again with its key on the next line, and fails a call on the connection itself, as a browser page does', async () => {
    const { preload, fake } = fakePreload();
    const bridge = createFrameBridge(preloadCarrier(preload, null));
    const seen: ConnectionState[] = [];
    bridge.onConnectionChange((state) => seen.push(state));
    const first = fake.line();
    fake.tell(first, { t: 'open' });
    const change = bridge.call('renameProject', { projectId: 'p-aaaaaa', name: 'shop' });
    const watch = bridge.call('watchTaskOutput', { taskId: 't-aaaaaa' });
    const [renamed] = fake.sent.map(({ frame }) => frame);
    expect(renamed?.key).toMatch(/^[0-9a-f]{24}-\d+$/);
    fake.tell(first, { t: 'closed' });
    await expect(watch).rejects.toThrow('Connection to Drover lost');
    expect([bridge.connectionState(), bridge.loss()]).toEqual(['lost', { kind: 'broke-off' }]);
    await vi.advanceTimersByTimeAsync(10_000);
    const second = fake.line();
    expect(second).not.toBe(first);
    fake.tell(second, { t: 'open' });
    expect(fake.sent.slice(2)).toEqual([{ id: second, frame: renamed }]);
    expect(seen).toEqual(['open', 'lost', 'open']);
    bridge.close();
    await expect(change).rejects.toThrow('closed');
    expect(fake.closed).toEqual([second]);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(fake.line()).toBe(second);
  });

  it('reads a host that said it stops as stopped, and one that went without a word as broken off', async () => {
    const { preload, fake } = fakePreload();
    const bridge = createFrameBridge(preloadCarrier(preload, null));
    fake.tell(fake.line(), { t: 'open' });
    fake.tell(fake.line(), { t: 'frame', frame: '{"t":"host-stopping"}' });
    fake.tell(fake.line(), { t: 'closed' });
    expect(bridge.loss()).toEqual({ kind: 'host-stopped' });
    await vi.advanceTimersByTimeAsync(10_000);
    fake.tell(fake.line(), { t: 'open' });
    fake.tell(fake.line(), { t: 'closed' });
    expect(bridge.loss()).toEqual({ kind: 'broke-off' });
  });

  it("opens another machine's line once its host answered the greeting, and keeps the reason it ended with while it is lost", async () => {
    const { preload, fake } = fakePreload();
    const bridge = createFrameBridge(preloadCarrier(preload, 'box'), { opensOnFirstMessage: true });
    expect(fake.opened).toEqual([{ id: fake.line(), machine: 'box' }]);
    fake.tell(fake.line(), { t: 'open' });
    expect(bridge.connectionState()).toBe('connecting');
    fake.tell(fake.line(), { t: 'frame', frame: JSON.stringify({ t: 'machine-gone', reason: 'Cannot connect to box: the host key is unknown.' }) });
    fake.tell(fake.line(), { t: 'closed' });
    expect([bridge.connectionState(), bridge.loss()]).toEqual(['lost', { kind: 'machine', reason: 'Cannot connect to box: the host key is unknown.' }]);
    await vi.advanceTimersByTimeAsync(10_000);
    fake.tell(fake.line(), { t: 'closed' });
    // Ended without a word before it got through (main could not reach the host): the last reason stands.
    expect(bridge.loss()).toEqual({ kind: 'machine', reason: 'Cannot connect to box: the host key is unknown.' });
    await vi.advanceTimersByTimeAsync(10_000);
    fake.tell(fake.line(), { t: 'open' });
    fake.tell(fake.line(), { t: 'frame', frame: '{"t":"res","id":0,"ok":true,"result":{}}' });
    expect([bridge.connectionState(), bridge.loss()]).toEqual(['open', null]);
  });
});
