import { AckCounter } from '../../shared/ackCounter';
import type { TerminalBytes } from '../../shared/protocol';
import type { Bridge, Unsubscribe } from '../bridge';
import { errorMessage } from '../format/errorMessage';

export interface TerminalSize {
  cols: number;
  rows: number;
}

/** The part of an xterm the link drives. */
export interface TerminalScreen {
  /** The size that fills the screen's box, given on attach (see attachAgentTerminal); null while it has no box. */
  size(): TerminalSize | null;
  /**
   * Once everything written before is parsed, empties the screen, gives it the snapshot's size,
   * writes the snapshot (text with escape sequences) and calls `onRestored` once it is parsed.
   * What is written after comes after the snapshot.
   */
  restore(snapshot: string, size: TerminalSize, onRestored: () => void): void;
  /** Live output as UTF-8 bytes, which xterm decodes itself; `onParsed` once it has processed them. */
  write(data: Uint8Array, onParsed?: () => void): void;
}

/** What a screen needs of an xterm (the page's, or a headless one). */
export interface Xterm {
  readonly cols: number;
  readonly rows: number;
  write(data: string | Uint8Array, onParsed?: () => void): void;
  reset(): void;
  resize(cols: number, rows: number): void;
}

const NOTHING = new Uint8Array();

/**
 * An xterm as the link's screen. xterm parses writes in order, later: a restore empties the screen
 * in that order too, so output still waiting to be parsed when the link attached again (a page that
 * fell behind) is drawn before it, never into the restored screen.
 */
export function xtermScreen(terminal: Xterm, size: () => TerminalSize | null): TerminalScreen {
  return {
    size,
    restore: (snapshot, snapshotSize, onRestored) => {
      terminal.write(NOTHING, () => {
        terminal.reset();
        if (snapshotSize.cols !== terminal.cols || snapshotSize.rows !== terminal.rows) terminal.resize(snapshotSize.cols, snapshotSize.rows);
      });
      terminal.write(snapshot, onRestored);
    },
    write: (data, onParsed) => terminal.write(data, onParsed),
  };
}

/**
 * Connects one agent's terminal stream to a screen. Attaching answers with the host's mirror of the
 * terminal, serialized, and `at`, where in the stream it ends; every live chunk says where it
 * starts, so the screen takes exactly the chunks after the snapshot: none lost, none twice, however
 * the answer and the chunks interleave. Attachments belong to a connection, so after a reconnect
 * it attaches again and restores the screen from a fresh snapshot; so it does when a chunk starts
 * past the end of what the screen has (the host left this page behind while it acknowledged nothing).
 */
export class AgentTerminalLink {
  /** Bumped by every attach and by stop, so late answers and parse callbacks of old ones are ignored. */
  private generation = 0;
  /** Where the next chunk of the current attachment starts (the end of what the screen has); null until its answer came. */
  private nextAt: number | null = null;
  private attaching = false;
  /** Chunks that came before the attach answer: shown after the snapshot, from where it ends. */
  private early: TerminalBytes[] = [];
  private restoringScreen = false;
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

  /**
   * While the snapshot is written the screen answers what it replays as a terminal would (cursor
   * reports, device attributes, colours): that is not the person typing, and must not reach the agent.
   */
  get restoring(): boolean {
    return this.restoringScreen;
  }

  start(): void {
    this.subscriptions.push(
      this.bridge.onTerminal((chunk) => this.receive(chunk)),
      this.bridge.onConnectionChange((state) => {
        if (state === 'open') void this.attach();
        else this.reset();
      }),
    );
    if (this.bridge.connectionState() === 'open') void this.attach();
  }

  stop(): void {
    this.pause();
    this.subscriptions.forEach((unsubscribe) => unsubscribe());
  }

  /** Detaches: the host sends this page nothing more of the terminal, and its PTY no longer waits for the page. */
  pause(): void {
    this.generation++;
    this.reset();
    if (this.bridge.connectionState() === 'open') {
      this.bridge.call('detachAgentTerminal', { agentId: this.agentId }).catch(() => undefined);
    }
  }

  /** Attaches again after a pause: a fresh snapshot, then the stream from where it ends. */
  resume(): void {
    if (this.bridge.connectionState() === 'open') void this.attach();
  }

  private reset(): void {
    this.nextAt = null;
    this.attaching = false;
    this.early = [];
  }

  private async attach(): Promise<void> {
    const generation = ++this.generation;
    this.reset();
    this.attaching = true;
    this.acks.reset();
    try {
      const size = this.screen.size();
      const attached = await this.bridge.call('attachAgentTerminal', { agentId: this.agentId, ...(size ?? {}) });
      if (generation !== this.generation) return;
      this.restoringScreen = true;
      this.screen.restore(attached.snapshot, { cols: attached.cols, rows: attached.rows }, () => {
        if (generation === this.generation) this.restoringScreen = false;
      });
      this.attaching = false;
      this.nextAt = attached.at;
      const early = this.early;
      this.early = [];
      early.forEach((chunk) => this.receive(chunk));
      this.onError(null);
    } catch (error) {
      if (generation === this.generation) {
        this.attaching = false;
        this.onError(errorMessage(error));
      }
    }
  }

  private receive(chunk: TerminalBytes): void {
    if (chunk.agentId !== this.agentId) return;
    if (this.nextAt === null) {
      if (this.attaching) this.early.push(chunk);
      return;
    }
    // Already in the snapshot: a chunk of an earlier attachment, sent before this one began.
    if (chunk.at < this.nextAt) return;
    // The host left this page behind and it missed output: a fresh snapshot brings it up to date.
    if (chunk.at > this.nextAt) return void this.attach();
    if (chunk.data.byteLength === 0) return;
    this.nextAt += chunk.data.byteLength;
    const generation = this.generation;
    this.screen.write(chunk.data, () => {
      if (generation === this.generation) this.acks.written(chunk.data.byteLength);
    });
  }
}
