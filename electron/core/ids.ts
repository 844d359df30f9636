import { randomBytes } from 'node:crypto';

const ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyz';

/**
 * A time-ordered id (so ids sort roughly by creation) with enough randomness to be unique across
 * projects without coordination.
 */
export function newId(prefix: 'p' | 't' | 'a' | 's' | 'm' | 'w' | 'c' | 'd' | 'u' | 'r'): string {
  const time = Date.now().toString(36).padStart(9, '0');
  const random = Array.from(randomBytes(6), (byte) => ALPHABET[byte % ALPHABET.length]).join('');
  return `${prefix}-${time}${random}`;
}
