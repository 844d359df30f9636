import { hmac } from '@noble/hashes/hmac';
import { sha256 } from '@noble/hashes/sha2';
import { doorKey, fromHex, toHex, type HmacSha256 } from '../../shared/browserDoor';

const STORAGE_KEY = 'drover.doorKey';
/** Where a tab of a Drover from before the handshake kept the token itself. */
const OLD_TOKEN_KEY = 'drover.accessToken';

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
 * the address bar so it does not linger in history or screenshots. A tab an older Drover left the
 * token in gets the key made from it, and the token is removed.
 */
export function readDoorKey(): Uint8Array | null {
  if (keyOfThisLoad) return keyOfThisLoad;
  const oldToken = takeOldToken();
  const url = new URL(window.location.href);
  const token = url.searchParams.get('token');
  if (token) {
    url.searchParams.delete('token');
    window.history.replaceState(window.history.state, '', url.toString());
    keyOfThisLoad = keepKeyOf(token);
    return keyOfThisLoad;
  }
  keyOfThisLoad = fromHex(recall() ?? '') ?? (oldToken ? keepKeyOf(oldToken) : null);
  return keyOfThisLoad;
}

/** The key of `token` for this page's origin, kept for the next load. */
function keepKeyOf(token: string): Uint8Array {
  const key = doorKey(pageHmac, token, window.location.origin);
  remember(toHex(key));
  return key;
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

function takeOldToken(): string | null {
  try {
    const token = window.sessionStorage.getItem(OLD_TOKEN_KEY);
    window.sessionStorage.removeItem(OLD_TOKEN_KEY);
    return token;
  } catch {
    return null;
  }
}
