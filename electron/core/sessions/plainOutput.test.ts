import { Terminal } from '@xterm/headless';
import { describe, expect, it } from 'vitest';
import { plainAdvance } from './plainOutput';

function written(terminal: Terminal, data: string): Promise<void> {
  return new Promise((resolve) => terminal.write(data, resolve));
}

/** Plain output of every shape around a row's width: runs that end at the edge, past it, line feeds at a pending wrap. */
function plainPieces(cols: number): string[] {
  return ['a', 'b'.repeat(cols - 1), 'c'.repeat(cols), 'd'.repeat(cols + 1), 'e'.repeat(3 * cols + 2), '\r', '\n', '\r\n', '\n\n', 'f\r\ng'];
}

describe('plainAdvance', () => {
  it('moves the cursor as xterm does: the column it ends at and the lines it went down by', async () => {
    const cols = 7;
    const rows = 200;
    const pieces = plainPieces(cols);
    for (let round = 0; round < 40; round++) {
      // A tall screen: no write scrolls, so the cursor's row counts the lines.
      const terminal = new Terminal({ cols, rows, scrollback: 0, allowProposedApi: true });
      for (let step = 0; step < 8; step++) {
        const text = Array.from({ length: 1 + ((round + step) % 4) }, (_, i) => pieces[(round * 7 + step * 3 + i * 5) % pieces.length]).join('');
        const before = { x: terminal.buffer.active.cursorX, y: terminal.buffer.active.cursorY };
        const advance = plainAdvance(text, before.x, cols);
        await written(terminal, text);
        expect(advance, JSON.stringify(text)).toEqual({ lines: terminal.buffer.active.cursorY - before.y, x: terminal.buffer.active.cursorX });
      }
      terminal.dispose();
    }
  });

  it('finds anything that may change more than cells and the cursor not plain', () => {
    for (const text of ['\u001b[31mred', 'tab\there', 'ü', '\u0007', 'back\bspace', '\u009b2J']) expect(plainAdvance(text, 0, 80), JSON.stringify(text)).toBeNull();
  });
});
