import { randomBytes } from 'node:crypto';
import WebSocket from 'ws';
import { DoorChallengeSchema, doorKey, doorProof, DoorOpenSchema, pageProof } from '../shared/browserDoor';
import { hmacSha256 } from '../electron/host/doorHandshake';

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
 * A WebSocket of a door of `drover serve` (its printed URL, `?token=…`), let in through the
 * handshake a page makes (shared/browserDoor.ts). Rejects, saying why, when the upgrade is refused
 * (`HTTP 403`), the door does not prove it holds the token, or it closes before letting the client in.
 */
export function openDoorSocket(serveUrl: string, options: DoorSocketOptions = {}): Promise<WebSocket> {
  const url = new URL(serveUrl);
  const token = options.token ?? url.searchParams.get('token') ?? '';
  const key = doorKey(hmacSha256, token, options.origin ?? '');
  const ws = new WebSocket(`ws://${url.host}${options.path ?? '/api'}`, { headers: { ...options.headers, ...(options.origin ? { Origin: options.origin } : {}) } });
  const pageNonce = randomBytes(32).toString('hex');
  return new Promise((resolve, reject) => {
    let doorNonce: string | null = null;
    const handshake = (data: WebSocket.RawData) => {
      const frame: unknown = JSON.parse(data.toString());
      if (doorNonce === null) {
        const challenge = DoorChallengeSchema.parse(frame);
        if (challenge.doorProof !== doorProof(hmacSha256, key, pageNonce, challenge.doorNonce)) {
          ws.terminate();
          return reject(new Error('the door did not prove it holds the token'));
        }
        doorNonce = challenge.doorNonce;
        ws.send(JSON.stringify({ t: 'page-proof', pageProof: pageProof(hmacSha256, key, pageNonce, doorNonce) }));
        return;
      }
      DoorOpenSchema.parse(frame);
      ws.off('message', handshake);
      if (options.onMessage) ws.on('message', options.onMessage);
      ws.off('close', closedEarly);
      resolve(ws);
    };
    const closedEarly = (code: number, reason: Buffer) => reject(new Error(`closed before the door let it in: ${code} ${reason.toString()}`));
    ws.on('message', handshake);
    ws.once('open', () => ws.send(JSON.stringify({ t: 'door-hello', pageNonce })));
    ws.once('unexpected-response', (_request, response) => reject(new Error(`HTTP ${response.statusCode}`)));
    ws.once('error', reject);
    ws.once('close', closedEarly);
  });
}
