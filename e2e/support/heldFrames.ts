import type { Page, WebSocketRoute } from '@playwright/test';

interface Frame {
  t?: string;
  id?: number;
  method?: string;
  event?: { name?: string };
}

/** A text frame as JSON, or nothing for one that is not (the door's own greeting may not be). */
function frameOf(message: string | Buffer): Frame {
  if (typeof message !== 'string') return {};
  try {
    return JSON.parse(message) as Frame;
  } catch {
    return {};
  }
}

/** What to hold of what the host sends the page: the answers to some methods, the events of some names. */
export interface HeldFrames {
  replies?: readonly string[];
  events?: readonly string[];
}

/**
 * Holds the host's answers to the named methods and its events of the named kinds until `release`
 * is called (then everything held goes, in order, and nothing more is held); every other frame
 * passes. Routing takes only sockets opened after it: call it before the page opens its one.
 */
export async function holdFromHost(page: Page, held: HeldFrames): Promise<{ release(): void }> {
  const queue: { route: WebSocketRoute; message: string | Buffer }[] = [];
  const waiting = new Set<string>();
  let releasing = false;
  await page.routeWebSocket(/.*/, (ws) => {
    const server = ws.connectToServer();
    ws.onMessage((message) => {
      const frame = frameOf(message);
      if (frame.t === 'req' && frame.method && held.replies?.includes(frame.method)) waiting.add(String(frame.id));
      server.send(message);
    });
    server.onMessage((message) => {
      if (!releasing) {
        const frame = frameOf(message);
        const isHeldReply = frame.t === 'res' && waiting.has(String(frame.id));
        const isHeldEvent = frame.t === 'evt' && frame.event?.name !== undefined && held.events?.includes(frame.event.name) === true;
        if (isHeldReply || isHeldEvent) {
          queue.push({ route: ws, message });
          return;
        }
      }
      ws.send(message);
    });
  });
  return {
    release() {
      releasing = true;
      for (const { route, message } of queue.splice(0)) route.send(message);
    },
  };
}

/** Holds the host's answers to `method` until `release` is called; every other frame passes. */
export function holdReplies(page: Page, method: string): Promise<{ release(): void }> {
  return holdFromHost(page, { replies: [method] });
}
