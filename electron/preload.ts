/**
 * The sandboxed preload: exposes the one small bridge from shared/preloadBridge.ts and nothing
 * else. Frames pass through untouched; main checks the sender and the host validates them.
 * Sandboxed preloads can only require 'electron', so this file is bundled.
 */
import { contextBridge, ipcRenderer } from 'electron';
import type { IpcRendererEvent } from 'electron';
import { IPC_INVOKE_CHANNEL, IPC_PUSH_CHANNEL, PRELOAD_BRIDGE_KEY } from '../shared/preloadBridge';
import type { PreloadBridge } from '../shared/preloadBridge';
import type { PushFrame, ResponseFrame } from '../shared/protocol';

const bridge: PreloadBridge = {
  invoke(frame) {
    return ipcRenderer.invoke(IPC_INVOKE_CHANNEL, frame) as Promise<ResponseFrame>;
  },
  onPush(listener) {
    // The IPC event object (with its `sender`) never reaches the page.
    const forward = (_event: IpcRendererEvent, frame: PushFrame): void => listener(frame);
    ipcRenderer.on(IPC_PUSH_CHANNEL, forward);
    return () => {
      ipcRenderer.removeListener(IPC_PUSH_CHANNEL, forward);
    };
  },
};

contextBridge.exposeInMainWorld(PRELOAD_BRIDGE_KEY, bridge);
