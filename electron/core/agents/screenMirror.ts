import { Terminal } from '@xterm/headless';

/** A headless copy of an agent's terminal, so state detection reads the screen a person sees. */
export class ScreenMirror {
  private readonly terminal: Terminal;

  constructor(cols: number, rows: number) {
    this.terminal = new Terminal({ cols, rows, scrollback: 0, allowProposedApi: true });
  }

  write(data: string): void {
    this.terminal.write(data);
  }

  resize(cols: number, rows: number): void {
    this.terminal.resize(cols, rows);
  }

  /** Resolves once everything written so far has been parsed. */
  settled(): Promise<void> {
    return new Promise((resolve) => this.terminal.write('', resolve));
  }

  /** The visible screen as text, one line per row. */
  text(): string {
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
