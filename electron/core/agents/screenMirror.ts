import { Terminal } from '@xterm/headless';

/**
 * Past this much unparsed output, only the newest part is parsed (after a reset): agent screens
 * are fully redrawn long before that, and parsing a 100 MB flood would stall the main process.
 */
const MAX_PENDING_CHARS = 1024 * 1024;

/**
 * A headless copy of an agent's terminal, so state detection reads the screen a person sees.
 * Output is parsed only when the screen is read (after a quiet period), never per chunk.
 */
export class ScreenMirror {
  private readonly terminal: Terminal;
  private pending: string[] = [];
  private pendingChars = 0;

  constructor(cols: number, rows: number) {
    this.terminal = new Terminal({ cols, rows, scrollback: 0, allowProposedApi: true });
  }

  write(data: string): void {
    this.pending.push(data);
    this.pendingChars += data.length;
    if (this.pendingChars > 2 * MAX_PENDING_CHARS) this.compact();
  }

  resize(cols: number, rows: number): void {
    this.terminal.resize(cols, rows);
  }

  /** The visible screen as text, one line per row, once all output so far is parsed. */
  async text(): Promise<string> {
    const overflowed = this.pendingChars > MAX_PENDING_CHARS;
    const data = this.pending.join('');
    this.pending = [];
    this.pendingChars = 0;
    if (overflowed) this.terminal.reset();
    await new Promise<void>((resolve) => this.terminal.write(overflowed ? data.slice(-MAX_PENDING_CHARS) : data, resolve));
    const buffer = this.terminal.buffer.active;
    const lines: string[] = [];
    for (let row = 0; row < this.terminal.rows; row++) {
      lines.push(buffer.getLine(buffer.viewportY + row)?.translateToString(true) ?? '');
    }
    return lines.join('\n');
  }

  dispose(): void {
    this.terminal.dispose();
  }

  private compact(): void {
    const tail = this.pending.join('').slice(-MAX_PENDING_CHARS - 1);
    this.pending = [tail];
    this.pendingChars = tail.length;
  }
}
