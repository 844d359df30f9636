import { describe, expect, it } from 'vitest';
import type { PreloadBridge } from '../../shared/preloadBridge';
import type { PushFrame, TerminalBytes } from '../../shared/protocol';
import { createPreloadBridge } from './preloadTransport';

describe('the Electron preload bridge', () => {
  it('hands terminal bytes from IPC to the page as the Uint8Array they arrived as', () => {
    let push: (frame: PushFrame) => void = () => undefined;
    const preload: PreloadBridge = {
      invoke: () => new Promise(() => undefined),
      onPush: (listener) => ((push = listener), () => undefined),
      notify: () => undefined,
      onNotificationClick: () => () => undefined,
      setBadgeCount: () => undefined,
    };
    const chunks: TerminalBytes[] = [];
    createPreloadBridge(preload).onTerminal((chunk) => chunks.push(chunk));
    const data = new TextEncoder().encode('caf\u00e9\r\n');
    push({ t: 'term', chunk: { agentId: 'a-aaaaaa', projectId: 'p-aaaaaa', data } });
    push({ t: 'term', chunk: { agentId: 'a-aaaaaa', projectId: 'p-aaaaaa', data: 'text' as unknown as Uint8Array } });
    expect(chunks).toHaveLength(1);
    expect(chunks[0]?.data).toBe(data);
  });
});
