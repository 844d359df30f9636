import type { DesktopNotification } from './desktopNotification';

export type { DesktopNotification } from './desktopNotification';

/**
 * What main tells a page of one of its lines: it reached the host's socket, a frame of the host
 * (a JSON line as text, a binary record as bytes, each passed on unread), or the line ended.
 */
export type LineEvent = { t: 'open' } | { t: 'frame'; frame: string | Uint8Array } | { t: 'closed' };

/**
 * The only thing the Electron preload exposes to the page, under `window[PRELOAD_BRIDGE_KEY]`.
 * Lines carry the same frames as every other transport, between the page and a connection of its
 * own to the host's local socket, which validates them; main only checks the sender and passes them
 * on. The page decides when to notify (the same rules as in a browser, which uses Web
 * Notifications); main shows them natively and keeps the taskbar badge.
 */
export interface PreloadBridge {
  /**
   * Opens line `id` (the page's own number for it) to this machine's host (machine null), or
   * through it to the host of another machine Drover knows by that name.
   */
  openLine(id: number, machine: string | null): void;
  /** One JSON request frame on an open line. */
  send(id: number, frame: string): void;
  closeLine(id: number): void;
  onLine(listener: (id: number, event: LineEvent) => void): () => void;
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
export const IPC_OPEN_LINE_CHANNEL = 'drover:open-line';
export const IPC_SEND_CHANNEL = 'drover:send';
export const IPC_CLOSE_LINE_CHANNEL = 'drover:close-line';
export const IPC_LINE_CHANNEL = 'drover:line';
export const IPC_NOTIFY_CHANNEL = 'drover:notify';
export const IPC_NOTIFICATION_CLICK_CHANNEL = 'drover:notification-click';
export const IPC_BADGE_CHANNEL = 'drover:badge';
export const IPC_OPEN_MACHINE_CHANNEL = 'drover:open-machine';
