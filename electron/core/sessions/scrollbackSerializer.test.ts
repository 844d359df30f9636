import { SerializeAddon } from '@xterm/addon-serialize';
import { Terminal, type IBufferCell, type IBufferLine } from '@xterm/headless';
import { describe, expect, it, vi } from 'vitest';
import { contentEnd, serializeTerminal, styledRow } from './scrollbackSerializer';

function terminal(cols = 40, rows = 6): Terminal {
  return new Terminal({ cols, rows, scrollback: 1000, allowProposedApi: true });
}

function write(target: Terminal, data: string): Promise<void> {
  return new Promise((resolve) => target.write(data, resolve));
}

/** Every cell of the normal buffer as text and look, row by row, with each row's wrap flag. */
function cells(target: Terminal): string[] {
  const buffer = target.buffer.normal;
  const cell = buffer.getNullCell();
  const rows: string[] = [];
  for (let y = 0; y < buffer.length; y++) {
    const line = buffer.getLine(y);
    if (!line) continue;
    const parts = [line.isWrapped ? 'wrapped' : 'row'];
    for (let x = 0; x < line.length; x++) {
      const at = line.getCell(x, cell) as IBufferCell;
      parts.push(`${at.getChars() || ' '}/${at.getWidth()}/${at.getFgColorMode()}:${at.getFgColor()}/${at.getBgColorMode()}:${at.getBgColor()}/${at.isBold()}${at.isItalic()}${at.isDim()}${at.isUnderline()}${at.isInverse()}${at.isStrikethrough()}`);
    }
    rows.push(parts.join(' '));
  }
  return rows;
}

const BUSY_OUTPUT = [
  '\u001b[1;32m❯\u001b[0m npm test\r\n',
  '\u001b[31mred\u001b[0m, \u001b[38;5;208morange\u001b[0m, \u001b[38;2;10;200;30mrgb\u001b[0m and \u001b[44;97mbright on blue\u001b[0m\r\n',
  'wide: 漢字テスト, emoji 😀 and e\u0301 combining\r\n',
  `${'a long line that the terminal wraps '.repeat(3)}\r\n`,
  '\u001b[42m   \u001b[0m a green block first, \u001b[45mand a magenta tail   \u001b[0m\r\n',
  '\u001b[1;3;4;7;9mall the flags\u001b[0m \u001b[2mdim\u001b[0m\r\n',
  'tabs\tand\tspaces   \r\n',
  `${'x'.repeat(40)}${'y'.repeat(10)}\r\n`,
].join('');

describe('serializeTerminal', () => {
  it('with the addon writing the screen after it, rebuilds the buffer cell for cell, wraps and looks included', async () => {
    const original = terminal();
    const addon = new SerializeAddon();
    original.loadAddon(addon);
    await write(original, BUSY_OUTPUT.repeat(4) + 'last line, on the screen\r\n$ ');
    expect(original.buffer.normal.baseY).toBeGreaterThan(20);

    const snapshot = serializeTerminal(original, addon);
    const restored = terminal();
    await write(restored, snapshot);
    expect(cells(restored)).toEqual(cells(original));
    expect([restored.buffer.active.cursorX, restored.buffer.active.cursorY]).toEqual([original.buffer.active.cursorX, original.buffer.active.cursorY]);

    // The addon alone gives the same buffer: the fast path changes only the time it takes.
    const byAddon = terminal();
    await write(byAddon, addon.serialize());
    expect(cells(restored)).toEqual(cells(byAddon));
  });

  it('leaves an alternate screen, and the history under it, as they were', async () => {
    const original = terminal();
    const addon = new SerializeAddon();
    original.loadAddon(addon);
    await write(original, BUSY_OUTPUT.repeat(2) + '\u001b[?1049h\u001b[H\u001b[7m a full-screen app \u001b[0m');
    const restored = terminal();
    await write(restored, serializeTerminal(original, addon));
    expect(restored.buffer.active.type).toBe('alternate');
    expect(restored.buffer.active.getLine(0)?.translateToString(true)).toBe(' a full-screen app ');
    // The history is this serializer's (the screen under an alternate one is the addon's to write).
    const history = original.buffer.normal.baseY;
    expect(history).toBeGreaterThan(10);
    expect(cells(restored).slice(0, history)).toEqual(cells(original).slice(0, history));
  });

  it('keeps a line that wraps from the scrollback onto the screen one line', async () => {
    const original = terminal();
    const addon = new SerializeAddon();
    original.loadAddon(addon);
    // Nine rows of one line: the screen (six rows) holds its last five and the prompt.
    await write(original, `first\r\n${'0123456789'.repeat(36)}\r\n$ `);
    const buffer = original.buffer.normal;
    expect(buffer.getLine(buffer.baseY)?.isWrapped).toBe(true);

    const restored = terminal();
    await write(restored, serializeTerminal(original, addon));
    expect(cells(restored)).toEqual(cells(original));
    expect([restored.buffer.active.cursorX, restored.buffer.active.cursorY]).toEqual([original.buffer.active.cursorX, original.buffer.active.cursorY]);
  });

  it('rebuilds a terminal whose whole scrollback is the start of the line on its screen', async () => {
    const original = terminal();
    const addon = new SerializeAddon();
    original.loadAddon(addon);
    await write(original, `${'abcdefghij'.repeat(40)}`);
    expect(original.buffer.normal.baseY).toBeGreaterThan(0);
    const restored = terminal();
    await write(restored, serializeTerminal(original, addon));
    expect(cells(restored)).toEqual(cells(original));
    expect([restored.buffer.active.cursorX, restored.buffer.active.cursorY]).toEqual([original.buffer.active.cursorX, original.buffer.active.cursorY]);
  });

  it('writes a line that fills the whole scrollback and wraps onto the screen itself, leaving the addon the screen and one row', async () => {
    const original = terminal();
    const addon = new SerializeAddon();
    original.loadAddon(addon);
    // A flood with no line break (a minified file, base64): one line of hundreds of rows, a look changing in it.
    await write(original, `${'abcdefghij'.repeat(300)}\u001b[1;31m${'klmnopqrst'.repeat(300)}\u001b[0m${'uvwxyz'.repeat(50)}`);
    expect(original.buffer.normal.getLine(original.buffer.normal.baseY)?.isWrapped).toBe(true);
    const serialize = vi.spyOn(addon, 'serialize');
    const snapshot = serializeTerminal(original, addon);
    expect(serialize).toHaveBeenCalledWith({ scrollback: 1 });
    const restored = terminal();
    await write(restored, snapshot);
    expect(cells(restored)).toEqual(cells(original));
    expect([restored.buffer.active.cursorX, restored.buffer.active.cursorY]).toEqual([original.buffer.active.cursorX, original.buffer.active.cursorY]);
  });

  it('leaves a long line to the addon whole where its row above the screen starts with a wide character', async () => {
    const original = terminal();
    const addon = new SerializeAddon();
    original.loadAddon(addon);
    // 39 cells of x then a wide character that no longer fits: each row wraps with one cell left empty.
    await write(original, `${'x'.repeat(39)}漢`.repeat(20));
    const restored = terminal();
    await write(restored, serializeTerminal(original, addon));
    expect(cells(restored)).toEqual(cells(original));
    expect([restored.buffer.active.cursorX, restored.buffer.active.cursorY]).toEqual([original.buffer.active.cursorX, original.buffer.active.cursorY]);
  });

  it("reads each row's end and runs from xterm's own cells as through its API", async () => {
    const original = terminal();
    await write(original, BUSY_OUTPUT + 'text\u001b[7m   \u001b[0m\r\n\u001b[4m  \u001b[0m\r\n\u001b[31m\u001b[K\u001b[0m\r\nend \u001b[8m \u001b[0m\r\n');
    const buffer = original.buffer.normal;
    const cell = buffer.getNullCell();
    for (let y = 0; y < buffer.length; y++) {
      const line = buffer.getLine(y) as IBufferLine;
      // The same row with only xterm's API to read it by.
      const apiOnly: IBufferLine = {
        isWrapped: line.isWrapped,
        length: line.length,
        getCell: (x, into) => line.getCell(x, into),
        translateToString: (trimRight, start, end) => line.translateToString(trimRight, start, end),
      };
      const end = contentEnd(line, cell);
      expect(end, `row ${y}`).toBe(contentEnd(apiOnly, cell));
      for (const width of [end, line.length]) expect(styledRow(line, cell, width), `row ${y}`).toBe(styledRow(apiOnly, cell, width));
    }
  });
});
