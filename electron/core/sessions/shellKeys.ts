import { TypedLine, type SubmittedLine } from './typedLine';

/** What ShellKeys needs of a plain shell's session. */
export interface ShellKeysSession {
  /** Sends keys to the shell's PTY. */
  send(data: string): void;
  /**
   * A key is about to begin a command line (called before it is sent): settles once a turn that
   * ended before it (its command done, the prompt back) has its checkpoint.
   */
  lineBeginning(): Promise<void>;
  /** A command line was submitted: the turn it starts. */
  submitted(line: SubmittedLine): void;
}

/** Typing, or a history or cursor key: not Ctrl-C, Ctrl-D, Enter or another control key, which never wait. */
function beginsLine(data: string): boolean {
  const first = data.charCodeAt(0);
  return first === 0x1b || (first >= 0x20 && first !== 0x7f);
}

/**
 * A plain shell's keys, each command line its own turn. Keys go to the shell as they come, but the
 * Enter that submits a line waits (and every key after it) until the turn before it has its
 * checkpoint, so what the new command writes is never counted in the turn before.
 */
export class ShellKeys {
  private readonly line = new TypedLine();
  /** The line being typed waits for this (lineBeginning's) before it is submitted; null once settled. */
  private turnBefore: Promise<void> | null = null;
  /** Keys held behind a submitting line, in order; null when none are. */
  private held: Promise<void> | null = null;

  constructor(private readonly session: ShellKeysSession) {}

  write(data: string): void {
    if (this.held === null) this.take(data);
    else this.hold(Promise.resolve(), () => this.take(data));
  }

  /** Follows the keys (a line they begin waits for the turn before it) and sends them, or holds them if they submit a line too soon. */
  private take(data: string): void {
    if (this.line.atLineStart && beginsLine(data)) this.beginLine();
    const lines = this.line.feed(data);
    if (lines.length > 0 && this.turnBefore !== null) this.hold(this.turnBefore, () => this.deliver(data, lines));
    else this.deliver(data, lines);
  }

  /** Runs `step` once what is held already has gone and `until` settled; keys written meanwhile wait behind it. */
  private hold(until: Promise<void>, step: () => void): void {
    const held = Promise.all([this.held, until]).then(step);
    this.held = held;
    void held.then(() => {
      if (this.held === held) this.held = null;
    });
  }

  private beginLine(): void {
    const turnBefore = this.session.lineBeginning();
    this.turnBefore = turnBefore;
    void turnBefore.then(() => {
      if (this.turnBefore === turnBefore) this.turnBefore = null;
    });
  }

  private deliver(data: string, lines: SubmittedLine[]): void {
    this.session.send(data);
    for (const line of lines) this.session.submitted(line);
  }
}
