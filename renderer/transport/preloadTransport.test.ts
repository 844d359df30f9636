import { describe, expect, it } from 'vitest';
import type { ConnectionNotice, PreloadBridge } from '../../shared/preloadBridge';
import type { ConnectionState } from './bridgeTypes';
import type { PushFrame, TerminalBytes } from '../../shared/protocol';
import { createPreloadBridge } from './preloadTransport';

function fakePreload() {
  const fake = { push: (_frame: PushFrame) => undefined as void, connection: (_notice: ConnectionNotice) => undefined as void };
  const preload: PreloadBridge = {
    invoke: () => new Promise(() => undefined),
    onPush: (listener) => ((fake.push = listener), () => undefined),
    onConnection: (listener) => ((fake.connection = listener), () => undefined),
    notify: () => undefined,
    onNotificationClick: () => () => undefined,
    setBadgeCount: () => undefined,
    openMachineWindow: () => undefined,
  };
  return { preload, fake };
}

describe('the Electron preload bridge', () => {
  it('hands terminal bytes from IPC to the page as the Uint8Array they arrived as', () => {
    const { preload, fake } = fakePreload();
    const chunks: TerminalBytes[] = [];
    createPreloadBridge(preload).onTerminal((chunk) => chunks.push(chunk));
    const data = new TextEncoder().encode('caf\u00e9\r\n');
    fake.push({ t: 'term', chunk: { agentId: 'a-aaaaaa', projectId: 'p-aaaaaa', at: 0, data } });
    fake.push({ t: 'term', chunk: { agentId: 'a-aaaaaa', projectId: 'p-aaaaaa', at: 7, data: 'text' as unknown as Uint8Array } });
    expect(chunks).toHaveLength(1);
    expect(chunks[0]?.data).toBe(data);
  });

  it('starts open and follows what main says of the host: lost, then open again', () => {
    const { preload, fake } = fakePreload();
    const bridge = createPreloadBridge(preload);
    const seen: ConnectionState[] = [];
    bridge.onConnectionChange((state) => seen.push(state));
    expect(bridge.connectionState()).toBe('open');
    fake.connection({ state: 'lost', reason: null });
    expect(bridge.connectionState()).toBe('lost');
    fake.connection({ state: 'open', reason: null });
    expect(seen).toEqual(['lost', 'open']);
  });

  it("starts connecting in another machine's window, and keeps the reason main gave while it is lost", () => {
    const { preload, fake } = fakePreload();
    const bridge = createPreloadBridge(preload, false);
    const seen: ConnectionState[] = [];
    bridge.onConnectionChange((state) => seen.push(state));
    expect(bridge.connectionState()).toBe('connecting');
    fake.connection({ state: 'lost', reason: 'Cannot connect to box: the host key is unknown.' });
    expect(bridge.lostBecause()).toBe('Cannot connect to box: the host key is unknown.');
    fake.connection({ state: 'lost', reason: 'Cannot connect to box: it refused the login.' });
    expect(bridge.lostBecause()).toBe('Cannot connect to box: it refused the login.');
    fake.connection({ state: 'open', reason: null });
    expect(bridge.lostBecause()).toBeNull();
    expect(seen).toEqual(['lost', 'lost', 'open']);
  });
});
