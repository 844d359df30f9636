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

  /** The visible screen as text, one line per row, once all output so far is parsed. */
  async text(): Promise<string> {
    const { data, dropped } = this.pending.take();
    if (dropped) this.terminal.reset();
    await new Promise<void>((resolve) => this.terminal.write(data, resolve));
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
}
