import { Terminal } from '@xterm/headless';
import { PendingOutput } from './pendingOutput';

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
  private readonly pending = new PendingOutput(MAX_PENDING_CHARS);

  constructor(cols: number, rows: number) {
    this.terminal = new Terminal({ cols, rows, scrollback: 0, allowProposedApi: true });
  }

  write(data: string): void {
    this.pending.push(data);
  }

  resize(cols: number, rows: number): void {
    this.terminal.resize(cols, rows);
  }

  /**
   * The visible screen as text, once all output so far is parsed: one line per row, except that a
   * row the terminal wrapped is joined to the row it continues (so a long line reads as one).
   */
  async text(): Promise<string> {
    await this.catchUp();
    const buffer = this.terminal.buffer.active;
    const lines: string[] = [];
    for (let row = 0; row < this.terminal.rows; row++) {
      const line = buffer.getLine(buffer.viewportY + row);
      // A row continued on the next one keeps its trailing blanks: they may be a word's space.
      const continued = buffer.getLine(buffer.viewportY + row + 1)?.isWrapped === true && row + 1 < this.terminal.rows;
      const text = line?.translateToString(!continued) ?? '';
      if (line?.isWrapped && lines.length > 0) lines[lines.length - 1] += text;
      else lines.push(text);
    }
    return lines.join('\n');
  }

  /** Whether the program asked for bracketed paste (DECSET 2004), once all output so far is parsed. */
  async bracketedPaste(): Promise<boolean> {
    await this.catchUp();
    return this.terminal.modes.bracketedPasteMode;
  }

  private async catchUp(): Promise<void> {
    const { data, dropped } = this.pending.take();
    if (dropped) this.terminal.reset();
    await new Promise<void>((resolve) => this.terminal.write(data, resolve));
  }

  dispose(): void {
    this.terminal.dispose();
  }
}
