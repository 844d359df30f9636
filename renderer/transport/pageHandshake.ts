import { DoorChallengeSchema, DoorOpenSchema, doorProof, handshakeMessage, pageProof, toHex } from '../../shared/browserDoor';
import { pageHmac } from './doorKey';

/** What the page does with the door's next message. */
export type HandshakeStep = { send: string } | 'let-in' | 'not-the-door';

/**
 * The page's half of the door's handshake (shared/browserDoor.ts), one per connection: the page
 * sends its proof only once the server proved it holds the same key, so a program that took the
 * door's port gets a random nonce and nothing else.
 */
export class PageHandshake {
  private readonly pageNonce = toHex(crypto.getRandomValues(new Uint8Array(32)));
  private proved = false;

  constructor(private readonly key: Uint8Array) {}

  hello(): string {
    return JSON.stringify({ t: 'door-hello', pageNonce: this.pageNonce });
  }

  /** The server's next message: the proof to answer with, the door letting the page in, or a server that is not the door. */
  receive(data: unknown): HandshakeStep {
    const frame = handshakeMessage(data);
    if (this.proved) return DoorOpenSchema.safeParse(frame).success ? 'let-in' : 'not-the-door';
    const challenge = DoorChallengeSchema.safeParse(frame);
    if (!challenge.success) return 'not-the-door';
    const { doorNonce, doorProof: given } = challenge.data;
    if (given !== doorProof(pageHmac, this.key, this.pageNonce, doorNonce)) return 'not-the-door';
    this.proved = true;
    return { send: JSON.stringify({ t: 'page-proof', pageProof: pageProof(pageHmac, this.key, this.pageNonce, doorNonce) }) };
  }
}
