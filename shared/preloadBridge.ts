import type { DesktopNotification } from './desktopNotification';
import type { PushFrame, RequestFrame, ResponseFrame } from './protocol';

export type { DesktopNotification } from './desktopNotification';

/** What main tells a window of its host: reachable, or not and why (another machine's: ssh's reason). */
export interface ConnectionNotice {
  state: 'open' | 'lost';
  reason: string | null;
  /** Lost because the host stopped on purpose, as it said before it went (`drover host stop`, a restart). */
  stopped?: boolean;
}

/**
 * Which of a window's lines a frame or notice is of: null for the window's own (this machine's
 * host, or the host of the machine the window shows), a machine's name for one it follows.
 */
export type LineName = string | null;

/**
 * The only thing the Electron preload exposes to the page, under `window[PRELOAD_BRIDGE_KEY]`.
 * Frames are the same as on every other transport; main validates them. The page decides when to
 * notify (the same rules as in a browser, which uses Web Notifications); main shows them natively
 * and keeps the taskbar badge.
 */
export interface PreloadBridge {
  invoke(frame: RequestFrame, line: LineName): Promise<ResponseFrame>;
  onPush(listener: (frame: PushFrame, line: LineName) => void): () => void;
  /**
   * The host runs in a process of its own: when it goes away the page hears `lost`, and `open`
   * once main reached it again (the page then fetches its snapshots and attaches again). A line to
   * another machine starts connecting and hears `open` once that machine's host answered.
   */
  onConnection(listener: (notice: ConnectionNotice, line: LineName) => void): () => void;
  /**
   * This machine's window follows another machine (its Needs you queue, notifications and palette
   * cover it) on a line of its own, until it stops following it or the page goes.
   */
  followMachine(machine: string, following: boolean): void;
  notify(notification: DesktopNotification): void;
  onNotificationClick(listener: (id: string) => void): () => void;
  /** How many items need the person (0 clears the badge). */
  setBadgeCount(count: number): void;
  /**
   * Opens the window of another machine Drover knows by that name on a route (`routeHref`; its
   * projects when none), or brings it forward there.
   */
  openMachineWindow(machine: string, routeHash: string | null): void;
}

export const PRELOAD_BRIDGE_KEY = 'droverBridge';

/** Names of the Electron IPC channels; kept here, away from zod, so the preload bundle stays small. */
export const IPC_INVOKE_CHANNEL = 'drover:invoke';
export const IPC_PUSH_CHANNEL = 'drover:push';
export const IPC_CONNECTION_CHANNEL = 'drover:connection';
export const IPC_NOTIFY_CHANNEL = 'drover:notify';
export const IPC_NOTIFICATION_CLICK_CHANNEL = 'drover:notification-click';
export const IPC_BADGE_CHANNEL = 'drover:badge';
export const IPC_OPEN_MACHINE_CHANNEL = 'drover:open-machine';
export const IPC_FOLLOW_MACHINE_CHANNEL = 'drover:follow-machine';
