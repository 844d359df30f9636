/** Anything but printable ASCII, CR and LF: a character that may change more than cells and the cursor. */
const NOT_PLAIN = /[^\x20-\x7e\r\n]/;

export interface PlainAdvance {
  /** Lines the cursor moved down by: each line feed and each wrap (at the bottom of the screen, a scroll). */
  lines: number;
  /** The column it ends at, 0..cols (cols: at the right edge, a wrap pending). */
  x: number;
}

/**
 * What plain output (printable ASCII, CR and LF only) does to a terminal's cursor with autowrap on,
 * written from column `x` (0..cols, as xterm counts it): nothing else of the terminal's state can
 * change, only cells. Null when the output is not plain.
 */
export function plainAdvance(text: string, x: number, cols: number): PlainAdvance | null {
  if (NOT_PLAIN.test(text)) return null;
  let lines = 0;
  let column = x;
  const print = (count: number) => {
    if (count === 0) return;
    const wraps = Math.ceil((column + count) / cols) - 1;
    lines += wraps;
    column += count - wraps * cols;
  };
  let from = 0;
  let nextCr = text.indexOf('\r');
  let nextLf = text.indexOf('\n');
  while (nextCr >= 0 || nextLf >= 0) {
    const isCr = nextCr >= 0 && (nextLf < 0 || nextCr < nextLf);
    const at = isCr ? nextCr : nextLf;
    print(at - from);
    from = at + 1;
    if (isCr) {
      column = 0;
      nextCr = text.indexOf('\r', from);
    } else {
      lines++;
      // xterm's line feed takes a pending wrap back to the last column.
      if (column >= cols) column = cols - 1;
      nextLf = text.indexOf('\n', from);
    }
  }
  print(text.length - from);
  return { lines, x: column };
}

/** Puts the cursor at column `x` (0..cols) of its line: what a cut of plain output leaves it at. */
export function cursorToColumn(x: number, cols: number): string {
  if (x === 0) return '\r';
  // A pending wrap is the cursor after a character in the last column: any character does, as the line is pushed out anyway.
  if (x >= cols) return cols > 1 ? `\r\u001b[${cols - 1}C ` : '\r ';
  return `\r\u001b[${x}C`;
}
