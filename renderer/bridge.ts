import { PRELOAD_BRIDGE_KEY, type PreloadBridge } from '../shared/preloadBridge';
import { readDoorKey } from './transport/doorKey';
import type { Bridge, ClosableBridge } from './transport/bridgeTypes';
import { routeHref, type Route } from '../shared/routes';
import { apiPathOf, machineOfPage, machinePageHref } from './transport/machinePage';
import { createPreloadBridge } from './transport/preloadTransport';
import { createWebSocketBridge } from './transport/webSocketTransport';

export type { ConnectionLoss } from '../shared/connectionLoss';
export type { Bridge, ClosableBridge, ConnectionState, Unsubscribe } from './transport/bridgeTypes';

function findPreloadBridge(): PreloadBridge | null {
  const candidate: unknown = Reflect.get(window, PRELOAD_BRIDGE_KEY);
  if (typeof candidate !== 'object' || candidate === null) return null;
  const { invoke, onPush } = candidate as Partial<Record<keyof PreloadBridge, unknown>>;
  return typeof invoke === 'function' && typeof onPush === 'function' ? (candidate as PreloadBridge) : null;
}

/** The page runs in the desktop app (whose AppImage can update itself), not in a browser on `drover serve`. */
export function runsInDesktopApp(): boolean {
  return findPreloadBridge() !== null;
}

/**
 * A line to the host of another machine (null: the one `drover serve` runs on): a WebSocket through
 * this page's server, or in the desktop app one its main process opens over ssh.
 */
export function createMachineBridge(machine: string | null): ClosableBridge {
  const preload = findPreloadBridge();
  if (preload && machine !== null) return createPreloadBridge(preload, { line: machine });
  const scheme = window.location.protocol === 'https:' ? 'wss' : 'ws';
  // The token is never in the URL: the page proves it holds it only to a server that proved it first.
  return createWebSocketBridge(`${scheme}://${window.location.host}${apiPathOf(machine)}`, { key: readDoorKey(), opensOnFirstMessage: machine !== null });
}

/** Electron exposes its preload bridge; anywhere else the page talks to `drover serve` over WebSocket. */
export function createBridge(): Bridge {
  const preload = findPreloadBridge();
  return preload ? createPreloadBridge(preload, { startsOpen: machineOfPage() === null }) : createMachineBridge(machineOfPage());
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
