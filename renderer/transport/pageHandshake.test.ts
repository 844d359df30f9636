import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { doorKey, doorProof, DoorHelloSchema, PageProofSchema, pageProof, toHex } from '../../shared/browserDoor';
import { pageHmac } from './doorKey';
import { PageHandshake } from './pageHandshake';

const nodeHmac = (key: Uint8Array, message: Uint8Array) => createHmac('sha256', key).update(message).digest();

describe("the page's half of the door's handshake", () => {
  it("computes HMAC-SHA256 as the host's Node does, where crypto.subtle is missing too", () => {
    const key = doorKey(pageHmac, 'a-token-of-32-characters-or-more-xyz', 'http://192.168.1.5:7400');
    expect(toHex(key)).toBe(toHex(doorKey(nodeHmac, 'a-token-of-32-characters-or-more-xyz', 'http://192.168.1.5:7400')));
    expect(toHex(pageHmac(new Uint8Array(), new Uint8Array()))).toBe('b613679a0814d9ec772f95d778c35fc5ff1697c493715653c6c712144292c5ad');
  });

  it('sends its proof only to a server that proved it holds the key, then waits to be let in', () => {
    const key = doorKey(pageHmac, 'token', 'http://127.0.0.1:7400');
    const handshake = new PageHandshake(key);
    const { pageNonce } = DoorHelloSchema.parse(JSON.parse(handshake.hello()));
    const doorNonce = 'c'.repeat(64);
    const step = handshake.receive(JSON.stringify({ t: 'door-challenge', doorNonce, doorProof: doorProof(nodeHmac, key, pageNonce, doorNonce) }));
    expect(step).not.toBe('not-the-door');
    const sent = PageProofSchema.parse(JSON.parse((step as { send: string }).send));
    expect(sent.pageProof).toBe(pageProof(nodeHmac, key, pageNonce, doorNonce));
    expect(handshake.receive('{"t":"res","id":1,"ok":true,"result":{}}')).toBe('not-the-door');
  });

  it('tells a server that cannot prove the key from the door, and gives it nothing', () => {
    const key = doorKey(pageHmac, 'token', 'http://127.0.0.1:7400');
    const handshake = new PageHandshake(key);
    const { pageNonce } = DoorHelloSchema.parse(JSON.parse(handshake.hello()));
    const doorNonce = 'd'.repeat(64);
    const otherKey = doorKey(pageHmac, 'another token', 'http://127.0.0.1:7400');
    expect(handshake.receive(JSON.stringify({ t: 'door-challenge', doorNonce, doorProof: doorProof(nodeHmac, otherKey, pageNonce, doorNonce) }))).toBe('not-the-door');
    for (const answer of ['HTTP/1.1 200 OK', '{"t":"door-open"}', new ArrayBuffer(8)]) expect(new PageHandshake(key).receive(answer)).toBe('not-the-door');
  });
});
