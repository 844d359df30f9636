/**
 * The sandboxed preload: exposes the one small bridge from shared/preloadBridge.ts and nothing
 * else. Frames pass through untouched; main checks the sender and passes them on, and the host
 * validates them.
 * Sandboxed preloads can only require 'electron', so this file is bundled.
 */
import { contextBridge, ipcRenderer } from 'electron';
import type { IpcRendererEvent } from 'electron';
import {
  IPC_BADGE_CHANNEL,
  IPC_CLOSE_LINE_CHANNEL,
  IPC_LINE_CHANNEL,
  IPC_NOTIFICATION_CLICK_CHANNEL,
  IPC_NOTIFY_CHANNEL,
  IPC_OPEN_LINE_CHANNEL,
  IPC_OPEN_MACHINE_CHANNEL,
  IPC_SEND_CHANNEL,
  PRELOAD_BRIDGE_KEY,
} from '../shared/preloadBridge';
import type { LineEvent, PreloadBridge } from '../shared/preloadBridge';

/** Forwards what main sends on a channel, without the IPC event object (and its `sender`). */
function listen<T extends unknown[]>(channel: string, listener: (...values: T) => void): () => void {
  const forward = (_event: IpcRendererEvent, ...values: T): void => listener(...values);
  ipcRenderer.on(channel, forward);
  return () => {
    ipcRenderer.removeListener(channel, forward);
  };
}

const bridge: PreloadBridge = {
  openLine(id, machine) {
    ipcRenderer.send(IPC_OPEN_LINE_CHANNEL, id, machine);
  },
  send(id, frame) {
    ipcRenderer.send(IPC_SEND_CHANNEL, id, frame);
  },
  closeLine(id) {
    ipcRenderer.send(IPC_CLOSE_LINE_CHANNEL, id);
  },
  onLine: (listener) => listen<[number, LineEvent]>(IPC_LINE_CHANNEL, listener),
  notify(notification) {
    ipcRenderer.send(IPC_NOTIFY_CHANNEL, notification);
  },
  onNotificationClick: (listener) => listen<[string]>(IPC_NOTIFICATION_CLICK_CHANNEL, listener),
  setBadgeCount(count) {
    ipcRenderer.send(IPC_BADGE_CHANNEL, count);
  },
  openMachineWindow(machine, routeHash) {
    ipcRenderer.send(IPC_OPEN_MACHINE_CHANNEL, machine, routeHash);
  },
};

contextBridge.exposeInMainWorld(PRELOAD_BRIDGE_KEY, bridge);
