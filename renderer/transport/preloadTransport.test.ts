import { describe, expect, it } from 'vitest';
import type { ConnectionNotice, LineName, PreloadBridge } from '../../shared/preloadBridge';
import type { ConnectionState } from './bridgeTypes';
import type { PushFrame, RequestFrame, TerminalBytes } from '../../shared/protocol';
import { createPreloadBridge } from './preloadTransport';

function fakePreload() {
  const pushes = new Set<(frame: PushFrame, line: LineName) => void>();
  const notices = new Set<(notice: ConnectionNotice, line: LineName) => void>();
  const fake = {
    push: (frame: PushFrame, line: LineName = null) => pushes.forEach((listener) => listener(frame, line)),
    connection: (notice: ConnectionNotice, line: LineName = null) => notices.forEach((listener) => listener(notice, line)),
    invoked: [] as [RequestFrame, LineName][],
    following: [] as [string, boolean][],
  };
  const preload: PreloadBridge = {
    invoke: (frame, line) => {
      fake.invoked.push([frame, line]);
      return new Promise(() => undefined);
    },
    onPush: (listener) => (pushes.add(listener), () => pushes.delete(listener)),
    onConnection: (listener) => (notices.add(listener), () => notices.delete(listener)),
    followMachine: (machine, following) => fake.following.push([machine, following]),
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

  it('tells a host stopped on purpose from one that went without a word, as main heard it', () => {
    const { preload, fake } = fakePreload();
    const bridge = createPreloadBridge(preload);
    fake.connection({ state: 'lost', reason: null, stopped: true });
    expect(bridge.loss()).toEqual({ kind: 'host-stopped' });
    fake.connection({ state: 'open', reason: null });
    fake.connection({ state: 'lost', reason: null });
    expect(bridge.loss()).toEqual({ kind: 'broke-off' });
  });

  it("starts connecting in another machine's window, and keeps the reason main gave while it is lost", () => {
    const { preload, fake } = fakePreload();
    const bridge = createPreloadBridge(preload, { startsOpen: false });
    const seen: ConnectionState[] = [];
    bridge.onConnectionChange((state) => seen.push(state));
    expect(bridge.connectionState()).toBe('connecting');
    fake.connection({ state: 'lost', reason: 'Cannot connect to box: the host key is unknown.' });
    expect(bridge.loss()).toEqual({ kind: 'machine', reason: 'Cannot connect to box: the host key is unknown.' });
    fake.connection({ state: 'lost', reason: 'Cannot connect to box: it refused the login.' });
    expect(bridge.loss()).toEqual({ kind: 'machine', reason: 'Cannot connect to box: it refused the login.' });
    fake.connection({ state: 'open', reason: null });
    expect(bridge.loss()).toBeNull();
    expect(seen).toEqual(['lost', 'lost', 'open']);
    expect(fake.following).toEqual([]);
  });

  it('keeps the line to a followed machine apart from the window’s own, and stops following it once closed', () => {
    const { preload, fake } = fakePreload();
    const own = createPreloadBridge(preload);
    const box = createPreloadBridge(preload, { line: 'box' });
    expect(fake.following).toEqual([['box', true]]);
    expect(box.connectionState()).toBe('connecting');
    const events = { own: [] as string[], box: [] as string[] };
    own.onEvent((event) => events.own.push(event.name));
    box.onEvent((event) => events.box.push(event.name));
    fake.connection({ state: 'open', reason: null }, 'box');
    expect([own.connectionState(), box.connectionState()]).toEqual(['open', 'open']);
    fake.push({ t: 'evt', event: { name: 'projectChanged', seq: 1, projectId: 'p-aaaaaa', project: null } }, 'box');
    expect(events).toEqual({ own: [], box: ['projectChanged'] });
    void box.call('listProjects', {});
    void own.call('listProjects', {});
    expect(fake.invoked.map(([frame, line]) => [frame.method, line])).toEqual([['listProjects', 'box'], ['listProjects', null]]);
    fake.connection({ state: 'lost', reason: 'gone' }, 'box');
    expect([own.connectionState(), box.connectionState()]).toEqual(['open', 'lost']);

    box.close();
    expect(fake.following).toEqual([['box', true], ['box', false]]);
    fake.push({ t: 'evt', event: { name: 'projectChanged', seq: 2, projectId: 'p-aaaaaa', project: null } }, 'box');
    expect(events.box).toEqual(['projectChanged']);
  });
});
