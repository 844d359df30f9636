import { hmac } from '@noble/hashes/hmac';
import { sha256 } from '@noble/hashes/sha2';
import { doorKey, fromHex, toHex, type HmacSha256 } from '../../shared/browserDoor';

const STORAGE_KEY = 'drover.doorKey';

/**
 * HMAC-SHA256 in plain JavaScript (an audited library): `crypto.subtle` exists only in secure
 * contexts, and a page of a LAN address over http is not one.
 */
export const pageHmac: HmacSha256 = (key, message) => hmac(sha256, key, message);

/** This page load's key, once read: storage can be disabled, and every line of the page needs it. */
let keyOfThisLoad: Uint8Array | null = null;

/**
 * The key this page proves itself to its door with (shared/browserDoor.ts), or null when it was
 * opened without the token (a bookmark, a history entry, a URL copied elsewhere). `drover serve`
 * hands out its URL with `?token=…`: the page keeps the key made from it for its own origin, in
 * sessionStorage so a reload still connects, and never the token itself; the token is taken out of
 * the address bar so it does not linger in history or screenshots.
 */
export function readDoorKey(): Uint8Array | null {
  if (keyOfThisLoad) return keyOfThisLoad;
  const url = new URL(window.location.href);
  const token = url.searchParams.get('token');
  if (token) {
    keyOfThisLoad = doorKey(pageHmac, token, window.location.origin);
    remember(toHex(keyOfThisLoad));
    url.searchParams.delete('token');
    window.history.replaceState(window.history.state, '', url.toString());
    return keyOfThisLoad;
  }
  keyOfThisLoad = fromHex(recall() ?? '');
  return keyOfThisLoad;
}

function remember(key: string): void {
  try {
    window.sessionStorage.setItem(STORAGE_KEY, key);
  } catch {
    // Storage can be disabled; the key still works for this page load.
  }
}

function recall(): string | null {
  try {
    return window.sessionStorage.getItem(STORAGE_KEY);
  } catch {
    return null;
  }
}
