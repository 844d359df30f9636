import { PRELOAD_BRIDGE_KEY, type PreloadBridge } from '../shared/preloadBridge';
import { readAccessToken } from './transport/accessToken';
import type { Bridge } from './transport/bridgeTypes';
import { apiPathOf, machineOfPage } from './transport/machinePage';
import { createPreloadBridge } from './transport/preloadTransport';
import { createWebSocketBridge } from './transport/webSocketTransport';

export type { Bridge, ConnectionState, Unsubscribe } from './transport/bridgeTypes';

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

/** Electron exposes its preload bridge; anywhere else the page talks to `drover serve` over WebSocket. */
export function createBridge(): Bridge {
  const preload = findPreloadBridge();
  if (preload) return createPreloadBridge(preload);
  const scheme = window.location.protocol === 'https:' ? 'wss' : 'ws';
  const token = readAccessToken() ?? '';
  return createWebSocketBridge(`${scheme}://${window.location.host}${apiPathOf(machineOfPage())}?token=${encodeURIComponent(token)}`);
}
