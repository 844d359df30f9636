import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { RawData, WebSocket } from 'ws';
import { DOOR_CLOSE, DoorHelloSchema, doorKey, doorProof, handshakeMessage, PageProofSchema, pageProof, type HmacSha256 } from '../../shared/browserDoor';

export const hmacSha256: HmacSha256 = (key, message) => createHmac('sha256', key).update(message).digest();

/** The key a page of that Origin (none: a client other than a browser) proves itself with. */
export function pageKeyFor(token: string, origin: string | undefined): Uint8Array {
  return doorKey(hmacSha256, token, origin ?? '');
}

function sameProof(given: string, expected: string): boolean {
  return given.length === expected.length && timingSafeEqual(Buffer.from(given), Buffer.from(expected));
}

/**
 * The door's half of the handshake (shared/browserDoor.ts): it answers the page's nonce with its own
 * proof, and lets the page in once the page's proof holds. Anything else (a message out of turn, a
 * wrong proof) closes the socket with DOOR_CLOSE.refused; nothing of the API answers before.
 */
export function admitPage(ws: WebSocket, key: Uint8Array, letIn: () => void): void {
  const doorNonce = randomBytes(32).toString('hex');
  let pageNonce: string | null = null;
  const refuse = () => {
    ws.off('message', onMessage);
    ws.close(DOOR_CLOSE.refused.code, DOOR_CLOSE.refused.reason);
  };
  function onMessage(data: RawData, isBinary: boolean): void {
    const frame = handshakeMessage(isBinary ? null : data.toString());
    if (pageNonce === null) {
      const hello = DoorHelloSchema.safeParse(frame);
      if (!hello.success) return refuse();
      pageNonce = hello.data.pageNonce;
      ws.send(JSON.stringify({ t: 'door-challenge', doorNonce, doorProof: doorProof(hmacSha256, key, pageNonce, doorNonce) }));
      return;
    }
    const proof = PageProofSchema.safeParse(frame);
    if (!proof.success || !sameProof(proof.data.pageProof, pageProof(hmacSha256, key, pageNonce, doorNonce))) return refuse();
    ws.off('message', onMessage);
    ws.send(JSON.stringify({ t: 'door-open' }));
    letIn();
  }
  ws.on('message', onMessage);
}
