import type { BrowserWindow } from 'electron';
import { routeHref, type Route } from '../../../shared/routes';

/**
 * Shows a page of the app in the window: a hash change inside the page, so the page keeps its
 * state and its connection (no reload). Runs once the page has loaded.
 */
export async function showRoute(window: BrowserWindow, route: Route): Promise<void> {
  const contents = window.webContents;
  if (contents.isLoadingMainFrame()) await new Promise<void>((resolve) => contents.once('did-finish-load', () => resolve()));
  await contents.executeJavaScript(`location.hash = ${JSON.stringify(routeHref(route))}`);
}

/** Brings the window to the front, restoring it when minimised. */
export function focusWindow(window: BrowserWindow): void {
  if (window.isDestroyed()) return;
  if (window.isMinimized()) window.restore();
  window.show();
  window.focus();
}
