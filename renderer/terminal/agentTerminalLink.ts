import { AckCounter } from '../../shared/ackCounter';
import type { TerminalBytes } from '../../shared/protocol';
import type { Bridge, Unsubscribe } from '../bridge';
import { errorMessage } from '../format/errorMessage';

/** The part of an xterm the link drives. */
export interface TerminalScreen {
  /** Empties the screen and its scrollback. */
  clear(): void;
  /**
   * `onParsed` runs once the terminal has processed `data` (xterm's write callback). Live output
   * comes as UTF-8 bytes, which xterm decodes itself; the scrollback comes as text.
   */
  write(data: string | Uint8Array, onParsed?: () => void): void;
}

/**
 * Connects one agent's terminal stream to a screen: attach (the host answers with the scrollback),
 * then live chunks, acknowledged as the screen parses them. Attachments belong to a connection,
 * so after a reconnect it attaches again and rewrites the screen from the fresh scrollback.
 */
export class AgentTerminalLink {
  /** Bumped by every attach and by stop, so late answers and parse callbacks of old ones are ignored. */
  private generation = 0;
  private attached = false;
  private readonly acks: AckCounter;
  private readonly subscriptions: Unsubscribe[] = [];

  constructor(
    private readonly bridge: Bridge,
    private readonly agentId: string,
    private readonly screen: TerminalScreen,
    private readonly onError: (message: string | null) => void,
  ) {
    this.acks = new AckCounter((bytes) => {
      this.bridge.call('ackAgentOutput', { agentId: this.agentId, bytes }).catch(() => undefined);
    });
  }

  start(): void {
    this.subscriptions.push(
      this.bridge.onTerminal((chunk) => this.receive(chunk)),
      this.bridge.onConnectionChange((state) => {
        if (state === 'open') void this.attach();
        else this.attached = false;
      }),
    );
    if (this.bridge.connectionState() === 'open') void this.attach();
  }

  stop(): void {
    this.generation++;
    this.attached = false;
    this.subscriptions.forEach((unsubscribe) => unsubscribe());
    if (this.bridge.connectionState() === 'open') {
      this.bridge.call('detachAgentTerminal', { agentId: this.agentId }).catch(() => undefined);
    }
  }

  private async attach(): Promise<void> {
    const generation = ++this.generation;
    this.attached = false;
    this.acks.reset();
    try {
      const { scrollback } = await this.bridge.call('attachAgentTerminal', { agentId: this.agentId });
      if (generation !== this.generation) return;
      this.screen.clear();
      this.screen.write(scrollback);
      this.attached = true;
      this.onError(null);
    } catch (error) {
      if (generation === this.generation) this.onError(errorMessage(error));
    }
  }

  /**
   * Chunks before the attach answer can only be leftovers of an earlier attachment on this
   * connection (the host sends the answer before any chunk of the new one), and the scrollback
   * already holds them.
   */
  private receive(chunk: TerminalBytes): void {
    if (chunk.agentId !== this.agentId || !this.attached) return;
    const generation = this.generation;
    this.screen.write(chunk.data, () => {
      if (generation === this.generation) this.acks.written(chunk.data.byteLength);
    });
  }
}
