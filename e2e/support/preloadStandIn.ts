import type { BrowserContext, Page } from '@playwright/test';
import { PageLines } from '../../electron/desktop/pageLines';
import type { LineEvent, PreloadBridge } from '../../shared/preloadBridge';
import { PRELOAD_BRIDGE_KEY } from '../../shared/preloadBridge';

/** A line event as it crosses into the page: a binary frame as base64, which page.evaluate can carry. */
type CrossingEvent = { t: 'open' } | { t: 'closed' } | { t: 'frame'; text: string } | { t: 'frame'; base64: string };

type MainCall = ['open', number, string | null] | ['send', number, string] | ['close', number];

/** What the stand-in puts on the page's window: the way in for the events of its lines. */
interface StandInWindow {
  __droverLineEvents?: (document: string, events: [number, CrossingEvent][]) => void;
  __droverMain?: (document: string, ...call: MainCall) => Promise<void>;
}

function crossing(event: LineEvent): CrossingEvent {
  if (event.t !== 'frame') return event;
  return typeof event.frame === 'string' ? { t: 'frame', text: event.frame } : { t: 'frame', base64: Buffer.from(event.frame).toString('base64') };
}

/**
 * The page side of the stand-in: the bridge preload.ts exposes, each call passed to the test's
 * stand-in for main with this document's name, and the events of its lines turned back into what
 * Electron's IPC would hand it.
 */
function exposeBridge(key: string): void {
  const standIn = window as unknown as StandInWindow;
  const document = Math.random().toString(36).slice(2);
  const listeners = new Set<(id: number, event: LineEvent) => void>();
  const main = (...call: MainCall) => void standIn.__droverMain?.(document, ...call);
  standIn.__droverLineEvents = (of, events) => {
    if (of !== document) return;
    for (const [id, event] of events) {
      const delivered: LineEvent =
        event.t !== 'frame' ? event : 'text' in event ? { t: 'frame', frame: event.text } : { t: 'frame', frame: Uint8Array.from(atob(event.base64), (char) => char.charCodeAt(0)) };
      for (const listener of [...listeners]) listener(id, delivered);
    }
  };
  const bridge: PreloadBridge = {
    openLine: (id, machine) => main('open', id, machine),
    send: (id, frame) => main('send', id, frame),
    closeLine: (id) => main('close', id),
    onLine: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    notify: () => undefined,
    onNotificationClick: () => () => undefined,
    setBadgeCount: () => undefined,
    // Main opens a window of the machine's own on the app's page with `?machine=NAME`: here the tab goes there.
    openMachineWindow: (machine, routeHash) => window.location.assign(`/?machine=${encodeURIComponent(machine)}${routeHash ?? ''}`),
  };
  Object.defineProperty(window, key, { value: Object.freeze(bridge) });
}

/**
 * Electron's preload and IPC, stood in for in plain Chromium, so the e2e suite runs the desktop
 * window's carrier: every page of `context` gets the bridge preload.ts exposes, and its lines go
 * through main's own PageLines to the host's socket at `socketPath`. As main does, a page's lines
 * end with its document; the events of a page's lines reach it in order, in batches.
 */
export async function installPreloadStandIn(context: BrowserContext, socketPath: string): Promise<void> {
  const shown = new Map<Page, { document: string; lines: PageLines }>();
  const linesOf = (page: Page, document: string): PageLines => {
    const current = shown.get(page);
    if (current?.document === document) return current.lines;
    // A page shows one document at a time: a new one means the last one went (a reload).
    current?.lines.closeAll();
    if (!current) page.once('close', () => shown.get(page)?.lines.closeAll());
    const waiting: [number, CrossingEvent][] = [];
    let delivering = false;
    const deliver = async () => {
      delivering = true;
      while (waiting.length > 0) {
        const batch = waiting.splice(0);
        await page.evaluate(([of, events]) => (window as unknown as StandInWindow).__droverLineEvents?.(of, events), [document, batch] as const).catch(() => undefined);
      }
      delivering = false;
    };
    const lines = new PageLines(socketPath, (id, event) => {
      waiting.push([id, crossing(event)]);
      if (!delivering) void deliver();
    });
    shown.set(page, { document, lines });
    return lines;
  };
  await context.exposeBinding('__droverMain', ({ page }, document: string, ...call: MainCall) => {
    const lines = linesOf(page, document);
    if (call[0] === 'open') lines.open(call[1], call[2]);
    else if (call[0] === 'send') lines.send(call[1], call[2]);
    else lines.close(call[1]);
  });
  await context.addInitScript(exposeBridge, PRELOAD_BRIDGE_KEY);
}
