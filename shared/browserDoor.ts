import { z } from 'zod';

/**
 * The browser door's handshake. A page proves it holds the browser token only to a server that
 * proved it first, so a program that took the door's port while the door was closed learns nothing
 * it could use; the token is never in the WebSocket's URL nor in any message:
 *
 *   page -> door  {t:'door-hello', pageNonce}
 *   door -> page  {t:'door-challenge', doorNonce, doorProof}     HMAC(key, 'door' pageNonce doorNonce)
 *   page -> door  {t:'page-proof', pageProof}                    HMAC(key, 'page' pageNonce doorNonce)
 *   door -> page  {t:'door-open'}                                then the API's own frames
 *
 * The key is HMAC-SHA256(token, the page's origin). A page keeps that key, not the token, so what a
 * page of one address kept opens the door only to a page of that address (the door takes the
 * origin from the Origin header it checked), never to one of another port or name.
 */

/** HMAC-SHA256, as each side has it (Node's crypto in the host, a library in the page). */
export type HmacSha256 = (key: Uint8Array, message: Uint8Array) => Uint8Array;

/** 32 random bytes, or an HMAC-SHA256, in lowercase hex. */
const Hex32Schema = z.string().regex(/^[0-9a-f]{64}$/, 'expected 32 bytes in lowercase hex');

export const DoorHelloSchema = z.object({ t: z.literal('door-hello'), pageNonce: Hex32Schema }).strict();
export const DoorChallengeSchema = z.object({ t: z.literal('door-challenge'), doorNonce: Hex32Schema, doorProof: Hex32Schema }).strict();
export const PageProofSchema = z.object({ t: z.literal('page-proof'), pageProof: Hex32Schema }).strict();
export const DoorOpenSchema = z.object({ t: z.literal('door-open') }).strict();

/**
 * A handshake message as JSON, for its schema to check, or null for anything else (a binary frame,
 * text that is not JSON): either side refuses a message it cannot read, and never throws on one.
 */
export function handshakeMessage(text: unknown): unknown {
  if (typeof text !== 'string') return null;
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/** How long a connection may take to become a page the door let in (request, upgrade and handshake). */
export const DOOR_HANDSHAKE_MS = 10_000;

/**
 * Close codes of the door's WebSocket, each with a reason in plain words (for clients other than
 * the page, which says what happened in its own). 4001, a machine's page losing its machine, is
 * `MACHINE_GONE_CLOSE_CODE` in machines.ts.
 */
export const DOOR_CLOSE = {
  /** The `drover serve` that opened the door stopped; the host and its work go on. */
  serveEnded: { code: 4002, reason: 'drover serve stopped, so its browser door closed; the Drover host and its agents and tasks go on' },
  /** The host stopped (`drover host stop`, a restart, a quit): its agents and running tasks ended with it. */
  hostStopped: { code: 4003, reason: 'The Drover host stopped: its agents and running tasks ended with it' },
  /** The page's handshake did not hold: it does not have this door's token. */
  refused: { code: 4401, reason: "This page's proof of the browser token did not hold: open the URL drover serve printed" },
} as const;

export type DoorFarewell = (typeof DOOR_CLOSE)[keyof typeof DOOR_CLOSE];

const utf8 = new TextEncoder();

export function toHex(bytes: Uint8Array): string {
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** The 32 bytes of a key or nonce written by `toHex`, or null for anything else. */
export function fromHex(text: string): Uint8Array | null {
  if (!Hex32Schema.safeParse(text).success) return null;
  return Uint8Array.from(text.match(/../g) ?? [], (pair) => parseInt(pair, 16));
}

/** The key a page of `origin` proves itself with (the Origin header's exact text; '' for a client that sends none). */
export function doorKey(hmac: HmacSha256, token: string, origin: string): Uint8Array {
  return hmac(utf8.encode(token), utf8.encode(`drover door key\n${origin}`));
}

/** What the door answers a page's nonce with: proof that it holds the key. */
export function doorProof(hmac: HmacSha256, key: Uint8Array, pageNonce: string, doorNonce: string): string {
  return toHex(hmac(key, utf8.encode(`drover door\n${pageNonce}\n${doorNonce}`)));
}

/** What the page answers the door's challenge with; its own label, so the door's proof never passes for it. */
export function pageProof(hmac: HmacSha256, key: Uint8Array, pageNonce: string, doorNonce: string): string {
  return toHex(hmac(key, utf8.encode(`drover page\n${pageNonce}\n${doorNonce}`)));
}
