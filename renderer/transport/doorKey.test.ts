import { afterEach, describe, expect, it, vi } from 'vitest';
import { doorKey, toHex } from '../../shared/browserDoor';
import { pageHmac } from './doorKey';

const ORIGIN = 'http://127.0.0.1:7400';
const TOKEN = 'a-token-of-32-characters-or-more-xyz';

/** A tab at `href` with this sessionStorage; readDoorKey of a fresh page load. */
async function pageLoad(href: string, stored: Record<string, string>) {
  const storage = new Map(Object.entries(stored));
  const replaced: string[] = [];
  vi.stubGlobal('window', {
    location: { href, origin: new URL(href).origin },
    history: { state: null, replaceState: (_state: unknown, _title: string, url: string) => replaced.push(url) },
    sessionStorage: {
      getItem: (name: string) => storage.get(name) ?? null,
      setItem: (name: string, value: string) => storage.set(name, value),
      removeItem: (name: string) => storage.delete(name),
    },
  });
  vi.resetModules();
  const { readDoorKey } = await import('./doorKey');
  return { key: readDoorKey(), storage: Object.fromEntries(storage), replaced };
}

describe('the key a tab proves itself to its door with', () => {
  afterEach(() => vi.unstubAllGlobals());

  const keyHex = toHex(doorKey(pageHmac, TOKEN, ORIGIN));

  it('is made from the URL drover serve printed, kept for a reload, and the token leaves the address bar', async () => {
    const first = await pageLoad(`${ORIGIN}/?token=${TOKEN}#/projects`, {});
    expect(first.key && toHex(first.key)).toBe(keyHex);
    expect(first.storage).toEqual({ 'drover.doorKey': keyHex });
    expect(first.replaced).toEqual([`${ORIGIN}/#/projects`]);
    const reload = await pageLoad(`${ORIGIN}/#/projects`, first.storage);
    expect(reload.key && toHex(reload.key)).toBe(keyHex);
  });

  it('is made from the token a tab of an older Drover kept, which is then removed', async () => {
    const { key, storage } = await pageLoad(`${ORIGIN}/`, { 'drover.accessToken': TOKEN });
    expect(key && toHex(key)).toBe(keyHex);
    expect(storage).toEqual({ 'drover.doorKey': keyHex });
  });

  it('never leaves the old token behind, whatever else the tab has', async () => {
    const kept = await pageLoad(`${ORIGIN}/`, { 'drover.doorKey': keyHex, 'drover.accessToken': 'an-older-token-of-32-characters-xyz' });
    expect(kept.key && toHex(kept.key)).toBe(keyHex);
    expect(kept.storage).toEqual({ 'drover.doorKey': keyHex });
    const fromUrl = await pageLoad(`${ORIGIN}/?token=${TOKEN}`, { 'drover.accessToken': 'an-older-token-of-32-characters-xyz' });
    expect(fromUrl.key && toHex(fromUrl.key)).toBe(keyHex);
    expect(fromUrl.storage).toEqual({ 'drover.doorKey': keyHex });
  });

  it('is none for a tab opened without a token', async () => {
    expect((await pageLoad(`${ORIGIN}/`, {})).key).toBeNull();
  });
});
