import { terminalSizeNote } from '../../../shared/terminalSizeNote';
import { CombiningMarkCap } from './combiningMarks';
import { ScreenMirror, type MirrorSnapshot } from './screenMirror';
import { ScrollbackLog } from './scrollbackLog';
import type { RestoredLog } from './scrollbackRecords';
import { TerminalStream, type FlowSource, type StreamAttachment, type TerminalSink } from './terminalStream';

export interface AgentTerminalOptions {
  /** The agent's terminal on disk: an earlier host's mirror is rebuilt from it. */
  scrollbackFile: string;
  scrollbackLines: number;
  /** The size of a terminal the file has none for (a new agent's). */
  cols: number;
  rows: number;
  /** How much output the file gathers after its last screen before it is rewritten from a new one (ScrollbackLog's default). */
  rewriteAfterBytes?: number;
}

/**
 * A line of Drover's own in a terminal, dimmed. It goes below the last row, scrolling the screen up,
 * so it covers nothing a program drew (the scroll region reset first, so the scroll takes the whole
 * screen): the rest of the terminal reads as it did.
 */
export function terminalNote(text: string): string {
  return `\u001b[r\u001b[999;1H\r\n\u001b[0m\u001b[2m── ${text} ──\u001b[0m\r\n`;
}

/** How far the mirror may be behind the output before it holds the PTY back. */
const MIRROR_BEHIND_CHARS = 4 * 1024 * 1024;

const DAMAGED_NOTE = terminalNote("Part of this terminal's history could not be read (its scrollback file was damaged).");

/**
 * Between one session's output and the next: out of the alternate screen, the modes a CLI may have
 * left on turned off (soft reset, bracketed paste, mouse and focus reports), and the old screen
 * scrolled into the scrollback, so history stays while the new session starts on a clean screen.
 */
function sessionBoundary(rows: number): string {
  // From the bottom row, each line feed scrolls one row of the old screen into the scrollback.
  return `\u001b[?1049l\u001b[!p\u001b[?2004l\u001b[?1000l\u001b[?1002l\u001b[?1003l\u001b[?1006l\u001b[?1004l\u001b[0m\u001b[${rows};1H${'\n'.repeat(rows)}\u001b[H`;
}

export interface AttachedTerminal extends MirrorSnapshot {
  /** Where the snapshot ends in the stream: the attachment's chunks start there. */
  at: number;
  acknowledge(chars: number): void;
  detach(): void;
}

/**
 * What one agent's terminal is in the host, across its sessions and for as long as the host runs:
 * its output (combining marks capped) goes to the scrollback file, to a headless mirror and to the
 * attached clients, in one stream. A client that attaches gets the mirror serialized at the point
 * where its own chunks start, so every client shows exactly what the agent drew, whenever it came.
 * Clients get the output without waiting for the mirror, which parses off their way; only a mirror
 * more than MIRROR_BEHIND_CHARS behind pauses the PTY, as a client would. The file records the
 * output, every change of size and, now and then, the mirror serialized, so the mirror a later host
 * rebuilds from it is this one.
 */
export class AgentTerminal {
  private readonly stream = new TerminalStream();
  private readonly marks = new CombiningMarkCap();
  private readonly log: ScrollbackLog;
  private readonly mirror: ScreenMirror;
  private readonly mirrorFeed: StreamAttachment;
  private readonly logFeed: StreamAttachment;
  private size: { cols: number; rows: number };
  private written = false;
  private rewriting = false;
  /** What the mirror's feed has not acknowledged: as much as the mirror is behind past MIRROR_BEHIND_CHARS. */
  private mirrorUnacknowledged = 0;

  constructor(options: AgentTerminalOptions) {
    this.size = { cols: options.cols, rows: options.rows };
    const { log, restored } = ScrollbackLog.open(options.scrollbackFile, () => this.rewriteLog(), options.rewriteAfterBytes);
    this.log = log;
    this.mirror = new ScreenMirror(options.cols, options.rows, options.scrollbackLines, () => this.paceMirror());
    this.mirrorFeed = this.stream.attach(
      {
        send: (data) => {
          this.mirrorUnacknowledged += data.length;
          this.mirror.write(data);
          this.paceMirror();
        },
      },
      { neverStalls: true },
    );
    this.replay(restored);
    // The file takes each batch as it is sent (after what it already holds): it has all a client was
    // ever shown. The mirror, attached before it, has each batch first, so a screen asked for while
    // the file takes one (see rewriteLog) holds that batch too.
    this.logFeed = this.stream.attach(
      {
        send: (data) => {
          this.log.append(data);
          this.logFeed.acknowledge(data.length);
        },
      },
      { neverStalls: true },
    );
    if (restored.damaged) this.write(DAMAGED_NOTE);
  }

  /** The size the PTY has (or a new session's PTY gets): the last one a client asked for. */
  get cols(): number {
    return this.size.cols;
  }

  get rows(): number {
    return this.size.rows;
  }

  /** The PTY of the session running now; null once it ended. */
  connect(source: FlowSource | null): void {
    this.stream.connect(source);
  }

  /** Output of the agent's PTY, or a note of Drover's own. */
  write(data: string): void {
    const capped = this.marks.cap(data);
    if (capped.length === 0) return;
    this.written = true;
    this.stream.push(capped);
  }

  /** Input was sent to the PTY: the output that answers it goes to the clients without a batch's wait. */
  inputSent(): void {
    this.stream.inputSent();
  }

  /** A new session starts: it gets a clean screen below the earlier sessions' output. */
  beginSession(): void {
    if (this.written) this.write(sessionBoundary(this.size.rows));
  }

  /**
   * The mirror takes the new size after everything the PTY wrote at the old one, the file says so
   * at the same point, and so does the stream, to the clients (see terminalSizeNote).
   */
  resize(cols: number, rows: number): void {
    if (cols === this.size.cols && rows === this.size.rows) return;
    this.size = { cols, rows };
    this.stream.flush();
    this.mirror.resize(cols, rows);
    this.log.resize(cols, rows);
    this.stream.push(terminalSizeNote(this.size));
  }

  setScrollbackLines(lines: number): void {
    this.mirror.setScrollbackLines(lines);
  }

  /** The visible screen as text, with all output so far parsed. */
  screen(): Promise<string> {
    this.stream.flush();
    return this.mirror.text();
  }

  /**
   * The scrollback and the screen as text (`styled`: with the SGR of each run, see
   * ScreenMirror.allText), once all of it is in the scrollback file too (but a flood the file
   * dropped, which its next screen puts there): the terminal a person (or a script) read is the
   * one a crash of the host rebuilds.
   */
  async text(options: { styled?: boolean } = {}): Promise<string> {
    this.stream.flush();
    const [text] = await Promise.all([this.mirror.allText(options), this.log.written()]);
    return text;
  }

  bracketedPaste(): Promise<boolean> {
    this.stream.flush();
    return this.mirror.bracketedPaste();
  }

  /**
   * The snapshot, and from where it ends the live chunks. Chunks that come while the snapshot is
   * made reach the sink only once the caller holds the attachment (on the next turn of the loop).
   */
  async attach(sink: TerminalSink): Promise<AttachedTerminal> {
    this.stream.flush();
    let held: [string, number][] | null = [];
    let detached = false;
    const attachment = this.stream.attach({ send: (data, at) => (held ? held.push([data, at]) : sink.send(data, at)) });
    const detach = () => {
      detached = true;
      attachment.detach();
    };
    let snapshot: MirrorSnapshot;
    try {
      snapshot = await this.mirror.snapshot();
    } catch (error) {
      detach();
      throw error;
    }
    setImmediate(() => {
      const waiting = held ?? [];
      held = null;
      if (!detached) for (const [data, at] of waiting) sink.send(data, at);
    });
    return { ...snapshot, at: attachment.at, acknowledge: attachment.acknowledge, detach };
  }

  /** Sends (and writes to the scrollback file) what is batched now (before the process's exit is announced). */
  flush(): void {
    this.stream.flush();
  }

  /** Resolves once the scrollback file has all of the output (a flood it missed in a screen) and is closed. */
  async dispose(): Promise<void> {
    this.stream.flush();
    this.logFeed.detach();
    this.mirrorFeed.detach();
    const lastScreen = this.log.missesOutput ? await this.mirror.snapshot().catch(() => null) : null;
    this.mirror.dispose();
    await this.log.close(lastScreen);
  }

  /** The mirror holds the PTY back only past MIRROR_BEHIND_CHARS behind: output it cannot drop (see ScreenMirror) stays bounded. */
  private paceMirror(): void {
    const held = Math.max(0, this.mirror.backlog - MIRROR_BEHIND_CHARS);
    if (this.mirrorUnacknowledged <= held) return;
    const acknowledged = this.mirrorUnacknowledged - held;
    this.mirrorUnacknowledged = held;
    this.mirrorFeed.acknowledge(acknowledged);
  }

  /**
   * The file has gathered enough since its last screen: the mirror, serialized at this point of the
   * stream (all output so far pushed to it), becomes the file's new start.
   */
  private rewriteLog(): void {
    if (this.rewriting) return;
    this.rewriting = true;
    this.stream.flush();
    this.log.beginRewrite();
    this.mirror
      .snapshot()
      .then(
        (screen) => this.log.finishRewrite(screen),
        () => this.log.finishRewrite(null),
      )
      .finally(() => (this.rewriting = false));
  }

  /** Rebuilds the mirror from what the file held: each output at the size it was drawn at. */
  private replay({ records }: RestoredLog): void {
    for (const record of records) {
      if (record.kind !== 'output') {
        this.stream.flush();
        this.size = { cols: record.cols, rows: record.rows };
        this.mirror.resize(record.cols, record.rows);
      }
      if (record.kind !== 'size') {
        this.written = true;
        this.stream.push(record.data);
      }
    }
    this.stream.flush();
  }
}
