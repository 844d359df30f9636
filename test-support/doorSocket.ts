import WebSocket from 'ws';
import { doorKey } from '../shared/browserDoor';
import { hmacSha256 } from '../electron/host/doorHandshake';
import { PageHandshake } from '../renderer/transport/pageHandshake';

export interface DoorSocketOptions {
  /** The WebSocket's path: `/api` (the default), or a machine's `/machines/NAME/api`. */
  path?: string;
  /** The Origin header, as a page of that origin sends it; none by default (a client other than a browser). */
  origin?: string;
  /** Other headers of the upgrade request. */
  headers?: Record<string, string>;
  /** The token to prove; the one in the URL by default. */
  token?: string;
  /** Every message the door sends once it let this client in, from the first. */
  onMessage?: (data: WebSocket.RawData, isBinary: boolean) => void;
}

/**
 * A WebSocket of a door of `drover serve` (its printed URL, `?token=…`), let in through the page's
 * own half of the handshake (renderer/transport/pageHandshake.ts). Rejects, saying why, when the
 * upgrade is refused (`HTTP 403`), the door does not prove it holds the token, or it closes before
 * letting the client in. Errors after that end the socket, as they would a page's.
 */
export function openDoorSocket(serveUrl: string, options: DoorSocketOptions = {}): Promise<WebSocket> {
  const url = new URL(serveUrl);
  const token = options.token ?? url.searchParams.get('token') ?? '';
  const handshake = new PageHandshake(doorKey(hmacSha256, token, options.origin ?? ''));
  const ws = new WebSocket(`ws://${url.host}${options.path ?? '/api'}`, { headers: { ...options.headers, ...(options.origin ? { Origin: options.origin } : {}) } });
  return new Promise((resolve, reject) => {
    const onHandshake = (data: WebSocket.RawData, isBinary: boolean) => {
      const step = handshake.receive(isBinary ? data : data.toString());
      if (step === 'not-the-door') {
        ws.terminate();
        reject(new Error('the door did not prove it holds the token'));
      } else if (step === 'let-in') {
        ws.off('message', onHandshake);
        ws.off('close', closedEarly);
        if (options.onMessage) ws.on('message', options.onMessage);
        resolve(ws);
      } else {
        ws.send(step.send);
      }
    };
    const closedEarly = (code: number, reason: Buffer) => reject(new Error(`closed before the door let it in: ${code} ${reason.toString()}`));
    ws.on('message', onHandshake);
    ws.once('open', () => ws.send(handshake.hello()));
    ws.once('unexpected-response', (request, response) => {
      reject(new Error(`HTTP ${response.statusCode}`));
      request.destroy();
    });
    // A reject once settled does nothing; the listener stays so a later error cannot go unhandled.
    ws.on('error', reject);
    ws.once('close', closedEarly);
  });
}
