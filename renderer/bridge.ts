import { PRELOAD_BRIDGE_KEY, type PreloadBridge } from '../shared/preloadBridge';
import { readDoorKey } from './transport/doorKey';
import type { Bridge, ClosableBridge } from './transport/bridgeTypes';
import { routeHref, type Route } from '../shared/routes';
import { apiPathOf, machineOfPage, machinePageHref } from './transport/machinePage';
import { createFrameBridge } from './transport/frameTransport';
import { preloadCarrier } from './transport/preloadTransport';
import { webSocketCarrier } from './transport/webSocketTransport';

export type { ConnectionLoss } from '../shared/connectionLoss';
export type { Bridge, ClosableBridge, ConnectionState, Unsubscribe } from './transport/bridgeTypes';

function findPreloadBridge(): PreloadBridge | null {
  const candidate: unknown = Reflect.get(window, PRELOAD_BRIDGE_KEY);
  if (typeof candidate !== 'object' || candidate === null) return null;
  const { openLine, onLine } = candidate as Partial<Record<keyof PreloadBridge, unknown>>;
  return typeof openLine === 'function' && typeof onLine === 'function' ? (candidate as PreloadBridge) : null;
}

/** The page runs in the desktop app (whose AppImage can update itself), not in a browser on `drover serve`. */
export function runsInDesktopApp(): boolean {
  return findPreloadBridge() !== null;
}

/**
 * A line to the host of another machine (null: this page's own): in a browser a WebSocket through
 * the page's door, in the desktop app a line through the preload; the same client on either.
 */
export function createMachineBridge(machine: string | null): ClosableBridge {
  const preload = findPreloadBridge();
  // A machine's host is greeted by the host this page reaches it through, whose answer opens the line.
  const options = { opensOnFirstMessage: machine !== null };
  if (preload) return createFrameBridge(preloadCarrier(preload, machine), options);
  const scheme = window.location.protocol === 'https:' ? 'wss' : 'ws';
  // The token is never in the URL: the page proves it holds it only to a server that proved it first.
  return createFrameBridge(webSocketCarrier(`${scheme}://${window.location.host}${apiPathOf(machine)}`, readDoorKey()), options);
}

/** The page's own line: to its machine's host (a machine's page, or window, shows that machine). */
export function createBridge(): Bridge {
  return createMachineBridge(machineOfPage());
}

/** The desktop app's own window opens another machine in a window of its own (a browser page links to the machine's page instead). */
export function opensMachineWindows(): boolean {
  return runsInDesktopApp() && machineOfPage() === null;
}

/**
 * Shows a machine's page on `route` (null: the serving machine's): in a window of its own in the
 * desktop app, in this tab in a browser.
 */
export function openMachinePage(machine: string | null, route?: Route): void {
  const preload = findPreloadBridge();
  if (preload && machine !== null) preload.openMachineWindow(machine, route ? routeHref(route) : null);
  else window.location.assign(machinePageHref(machine, route));
}
