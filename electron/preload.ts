/**
 * The sandboxed preload: exposes the one small bridge from shared/preloadBridge.ts and nothing
 * else. Frames pass through untouched; main checks the sender and the host validates them.
 * Sandboxed preloads can only require 'electron', so this file is bundled.
 */
import { contextBridge, ipcRenderer } from 'electron';
import type { IpcRendererEvent } from 'electron';
import {
  IPC_BADGE_CHANNEL,
  IPC_CONNECTION_CHANNEL,
  IPC_FOLLOW_MACHINE_CHANNEL,
  IPC_INVOKE_CHANNEL,
  IPC_NOTIFICATION_CLICK_CHANNEL,
  IPC_NOTIFY_CHANNEL,
  IPC_OPEN_MACHINE_CHANNEL,
  IPC_PUSH_CHANNEL,
  PRELOAD_BRIDGE_KEY,
} from '../shared/preloadBridge';
import type { ConnectionNotice, LineName, PreloadBridge } from '../shared/preloadBridge';
import type { PushFrame, ResponseFrame } from '../shared/protocol';

/** Forwards what main sends on a channel (a value and the line it is of), without the IPC event object (and its `sender`). */
function listen<T>(channel: string, listener: (value: T, line: LineName) => void): () => void {
  const forward = (_event: IpcRendererEvent, value: T, line: LineName = null): void => listener(value, line);
  ipcRenderer.on(channel, forward);
  return () => {
    ipcRenderer.removeListener(channel, forward);
  };
}

const bridge: PreloadBridge = {
  invoke(frame, line) {
    return ipcRenderer.invoke(IPC_INVOKE_CHANNEL, frame, line) as Promise<ResponseFrame>;
  },
  onPush: (listener) => listen<PushFrame>(IPC_PUSH_CHANNEL, listener),
  onConnection: (listener) => listen<ConnectionNotice>(IPC_CONNECTION_CHANNEL, listener),
  followMachine(machine, following) {
    ipcRenderer.send(IPC_FOLLOW_MACHINE_CHANNEL, machine, following);
  },
  notify(notification) {
    ipcRenderer.send(IPC_NOTIFY_CHANNEL, notification);
  },
  onNotificationClick: (listener) => listen<string>(IPC_NOTIFICATION_CLICK_CHANNEL, listener),
  setBadgeCount(count) {
    ipcRenderer.send(IPC_BADGE_CHANNEL, count);
  },
  openMachineWindow(machine, routeHash) {
    ipcRenderer.send(IPC_OPEN_MACHINE_CHANNEL, machine, routeHash);
  },
};

contextBridge.exposeInMainWorld(PRELOAD_BRIDGE_KEY, bridge);
