import type { SerializeAddon } from '@xterm/addon-serialize';
import type { IBufferCell, IBufferLine, Terminal } from '@xterm/headless';

/** One cell's look: colour modes and colours, and its flags as one number. */
interface Look {
  fg: number;
  fgMode: 'default' | 'palette' | 'rgb';
  bg: number;
  bgMode: 'default' | 'palette' | 'rgb';
  flags: number;
}

/** SGR codes of the flags, in the order of the bits of `Look.flags`. */
const FLAG_CODES = ['1', '3', '2', '4', '5', '7', '8', '9', '53'] as const;

function flagsOf(cell: IBufferCell): number {
  return (
    (cell.isBold() ? 1 : 0) |
    (cell.isItalic() ? 2 : 0) |
    (cell.isDim() ? 4 : 0) |
    (cell.isUnderline() ? 8 : 0) |
    (cell.isBlink() ? 16 : 0) |
    (cell.isInverse() ? 32 : 0) |
    (cell.isInvisible() ? 64 : 0) |
    (cell.isStrikethrough() ? 128 : 0) |
    (cell.isOverline() ? 256 : 0)
  );
}

function lookOf(cell: IBufferCell): Look {
  return {
    fg: cell.getFgColor(),
    fgMode: cell.isFgDefault() ? 'default' : cell.isFgRGB() ? 'rgb' : 'palette',
    bg: cell.getBgColor(),
    bgMode: cell.isBgDefault() ? 'default' : cell.isBgRGB() ? 'rgb' : 'palette',
    flags: flagsOf(cell),
  };
}

function isDefault(look: Look): boolean {
  return look.flags === 0 && look.fgMode === 'default' && look.bgMode === 'default';
}

function sameLook(cell: IBufferCell, look: Look, lookIsDefault: boolean): boolean {
  // Most cells of most rows have the default look: one test answers for them.
  if (lookIsDefault) return cell.isAttributeDefault();
  const fgMode = cell.isFgDefault() ? 'default' : cell.isFgRGB() ? 'rgb' : 'palette';
  const bgMode = cell.isBgDefault() ? 'default' : cell.isBgRGB() ? 'rgb' : 'palette';
  if (fgMode !== look.fgMode || bgMode !== look.bgMode) return false;
  if (fgMode !== 'default' && cell.getFgColor() !== look.fg) return false;
  if (bgMode !== 'default' && cell.getBgColor() !== look.bg) return false;
  return flagsOf(cell) === look.flags;
}

function colour(mode: Look['fgMode'], value: number, base: number, bright: number, extended: number): string | null {
  if (mode === 'default') return null;
  if (mode === 'rgb') return `${extended};2;${(value >> 16) & 0xff};${(value >> 8) & 0xff};${value & 0xff}`;
  if (value < 8) return String(base + value);
  if (value < 16) return String(bright + value - 8);
  return `${extended};5;${value}`;
}

/** The SGR that gives a look from any other (it starts with a reset). */
function sgr(look: Look): string {
  const codes = ['0'];
  FLAG_CODES.forEach((code, bit) => {
    if (look.flags & (1 << bit)) codes.push(code);
  });
  const fg = colour(look.fgMode, look.fg, 30, 90, 38);
  const bg = colour(look.bgMode, look.bg, 40, 100, 48);
  if (fg) codes.push(fg);
  if (bg) codes.push(bg);
  return `\u001b[${codes.join(';')}m`;
}

/**
 * xterm's own cells of a row, where its internals are at hand: three numbers a cell, its content
 * (code point, bits 0-20; a combined character, bit 21; width, bits 22-23), its foreground and its
 * background (both 0 for the default look). Read directly, a row costs a few array reads a cell
 * where the API builds a cell object per call: serializing the 5,000 rows of a full scrollback
 * took 12-65 ms through the API (the host's event loop held meanwhile).
 */
function cellsOf(line: IBufferLine): Uint32Array | null {
  const data = (line as unknown as { _line?: { _data?: unknown } })._line?._data;
  return data instanceof Uint32Array && data.length >= 3 * line.length ? data : null;
}

/** A cell of `cells` that has no character, one column, and the default look: what an erase leaves. */
function isBlank(cells: Uint32Array, col: number): boolean {
  const content = cells[3 * col] as number;
  return (content & 0x3fffff) === 0 && content >>> 22 === 1 && cells[3 * col + 1] === 0 && cells[3 * col + 2] === 0;
}

/** Whether the row's first `end` cells all have the default look. */
function allDefaultLook(cells: Uint32Array, end: number): boolean {
  for (let col = 0; col < end; col++) if (cells[3 * col + 1] !== 0 || cells[3 * col + 2] !== 0) return false;
  return true;
}

/**
 * Cells `[start, end)` of a row as text, as translateToString gives them (a blank cell a space, a
 * wide character once), in one flat string: xterm's own builds it a character at a time, a string
 * of as many pieces, and joining 5,000 such rows took 75 to 216 ms where their text took 7.
 */
function textOf(line: IBufferLine, cells: Uint32Array | null, start: number, end: number): string {
  if (!cells) return line.translateToString(false, start, end);
  const codes: number[] = [];
  for (let col = start; col < end; ) {
    const content = cells[3 * col] as number;
    // A character with combining marks is kept beside the cells: xterm's own reads it.
    if (content & 0x200000) return line.translateToString(false, start, end);
    codes.push(content & 0x1fffff || 0x20);
    col += content >>> 22 || 1;
  }
  return String.fromCodePoint(...codes);
}

/**
 * A row's first `end` cells as text, if they all have the default look (and xterm's internals are
 * at hand to tell it fast); else null.
 */
export function defaultLookText(line: IBufferLine, end: number): string | null {
  const cells = cellsOf(line);
  return cells && allDefaultLook(cells, end) ? textOf(line, cells, 0, end) : null;
}

/** Where a row's content ends: past its last cell that holds a character or a background colour. */
export function contentEnd(line: IBufferLine, cell: IBufferCell): number {
  const cells = cellsOf(line);
  if (cells) {
    for (let col = line.length; col > 0; col--) if (!isBlank(cells, col - 1)) return col;
    return 0;
  }
  for (let col = line.length; col > 0; col--) {
    const at = line.getCell(col - 1, cell);
    if (at && !(at.getCode() === 0 && at.getWidth() === 1 && at.isAttributeDefault())) return col;
  }
  return 0;
}

/**
 * A row's first `end` cells as text, each run of one look after the SGR that gives it (each
 * starting with a reset), taken in one piece per run.
 */
export function styledRow(line: IBufferLine, cell: IBufferCell, end: number): string {
  if (end === 0) return '';
  // Most rows are one run of the default look.
  const plain = defaultLookText(line, end);
  if (plain !== null) return `\u001b[0m${plain}`;
  const cells = cellsOf(line);
  const parts: string[] = [];
  let col = 0;
  while (col < end) {
    const look = lookOf(line.getCell(col, cell) as IBufferCell);
    const lookIsDefault = isDefault(look);
    let runEnd = col + 1;
    while (runEnd < end && sameLook(line.getCell(runEnd, cell) as IBufferCell, look, lookIsDefault)) runEnd++;
    parts.push(sgr(look), textOf(line, cells, col, runEnd));
    col = runEnd;
  }
  return parts.join('');
}

/**
 * The rows `[0, end)` of a terminal's normal buffer (rows above its screen) as text and SGR that
 * reproduce them: the rows written into an empty terminal of the same width, one after another. It
 * goes through each row's runs of one look and takes the text of a run in one piece, so 5,000 rows
 * cost a few tens of milliseconds where a cell-by-cell serializer takes several times that. What
 * follows is written as into an empty terminal, so this ends with the rows scrolled above an empty
 * screen and the cursor at its top left; unless row `end` continues the last row: then it ends at
 * that row's last column, where the next character written wraps into row `end`.
 */
function serializeRowsAbove(terminal: Terminal, end: number, rowsBefore: string): string {
  const buffer = terminal.buffer.normal;
  const cell = buffer.getNullCell();
  const parts: string[] = [rowsBefore];
  for (let row = 0; row < end; row++) {
    const line = buffer.getLine(row);
    if (!line) continue;
    // A row the next one continues is written to its full width, so the terminal wraps it there too.
    const wraps = buffer.getLine(row + 1)?.isWrapped === true;
    parts.push(styledRow(line, cell, wraps ? line.length : contentEnd(line, cell)), wraps ? '\u001b[0m' : '\u001b[0m\r\n');
  }
  // From the row below the last one, a line feed per row but one brings an empty screen in under it.
  if ((end > 0 || rowsBefore !== '') && buffer.getLine(end)?.isWrapped !== true) parts.push('\n'.repeat(terminal.rows - 1), '\u001b[H');
  return parts.join('');
}

/**
 * Whether the addon may start at `row`, a row that continues the one above, after this serializer
 * wrote that one to its last column: the row's first character, printed there, wraps into it as it
 * did (one cell wide, and after a row that ends in a character, as the addon's own wraps require;
 * on the default background, which the scroll the wrap makes fills the new row with).
 */
function wrapsIntoAddon(terminal: Terminal, row: number): boolean {
  const buffer = terminal.buffer.normal;
  const cell = buffer.getNullCell();
  const first = buffer.getLine(row)?.getCell(0, cell);
  if (!first?.getChars() || first.getWidth() !== 1 || !first.isBgDefault() || first.isInverse()) return false;
  const above = buffer.getLine(row - 1);
  const last = above?.getCell(above.length - 1, cell);
  return last !== undefined && last.getChars() !== '' && last.getWidth() === 1;
}

/**
 * A whole terminal as text and escapes that rebuild it in an empty terminal of its size: the
 * scrollback (fast, run by run), then through the serialize addon the screen, the cursor, the modes
 * and an alternate screen. A line that wraps from the scrollback onto the screen is wrapped into
 * the addon's first row (the row above the screen, so the addon writes every row of the screen, as
 * it does only with scrollback) when that row's first character can do it; otherwise the addon
 * writes the line whole, from its first row (a line of 5,000 rows costs it a second).
 * `rowsBefore`: rows older than the buffer's, already serialized so (see SpilledScrollback).
 */
export function serializeTerminal(terminal: Terminal, addon: SerializeAddon, rowsBefore = ''): string {
  const buffer = terminal.buffer.normal;
  let lineStart = buffer.baseY;
  while (lineStart > 0 && buffer.getLine(lineStart)?.isWrapped === true) lineStart--;
  const addonStart = lineStart < buffer.baseY - 1 && wrapsIntoAddon(terminal, buffer.baseY - 1) ? buffer.baseY - 1 : lineStart;
  return serializeRowsAbove(terminal, addonStart, rowsBefore) + addon.serialize({ scrollback: buffer.baseY - addonStart });
}
