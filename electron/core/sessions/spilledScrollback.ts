import type { IBuffer } from '@xterm/headless';
import { contentEnd, defaultLookText, styledRow } from './scrollbackSerializer';

/** What styledRow puts before each run. */
// eslint-disable-next-line no-control-regex -- the escape that starts each of them
const SGR = /\u001b\[[0-9;]*m/g;

interface SpilledRow {
  /** The row's cells as styledRow gives them: up to its content's end, or its full width when the next row continues it. */
  styled: string;
  /**
   * How much of `styled`'s text the row reads as plain (translateToString: trailing blanks kept only
   * when continued). Kept as a length, not a string: xterm builds that text a character at a time,
   * and such a string costs tens of bytes a character until something flattens it.
   */
  plainLength: number;
  /** It continues the row above. */
  wrapped: boolean;
  /** The next row continues it. */
  continued: boolean;
}

/**
 * The oldest rows of a mirror's scrollback, held as text instead of in the live terminal: a live
 * row costs 12 bytes a cell whatever it holds (a 120-column row: 1.4 kB and its objects), a row
 * held here the length of its text. Rows come in at the bottom and leave at the top, the oldest
 * first, as a terminal's scrollback does.
 */
export class SpilledScrollback {
  private rows: SpilledRow[] = [];
  /** The rows serialized (see serialized), kept until they change: attaching to a busy terminal reuses them. */
  private serializedRows: string | null = null;

  get length(): number {
    return this.rows.length;
  }

  /** Takes rows `[0, end)` of a buffer, the row at `end` not continuing them. */
  take(buffer: IBuffer, end: number): void {
    const cell = buffer.getNullCell();
    for (let row = 0; row < end; row++) {
      const line = buffer.getLine(row);
      if (!line) continue;
      const continued = buffer.getLine(row + 1)?.isWrapped === true;
      const end = continued ? line.length : contentEnd(line, cell);
      // A row of the default look reads as its text to `end`: the cells past it are blank.
      const plain = end === 0 ? '' : defaultLookText(line, end);
      this.rows.push({
        styled: plain === null ? styledRow(line, cell, end) : plain && `\u001b[0m${plain}`,
        plainLength: plain?.length ?? line.translateToString(!continued).length,
        wrapped: line.isWrapped,
        continued,
      });
    }
    this.serializedRows = null;
  }

  /** Lets the oldest rows go, past `count`. */
  keepAtMost(count: number): void {
    const excess = this.rows.length - Math.max(0, count);
    if (excess <= 0) return;
    this.rows.splice(0, excess);
    this.serializedRows = null;
  }

  clear(): void {
    this.keepAtMost(0);
  }

  /** The rows as scrollbackSerializer writes rows above a screen: each after the other, in an empty terminal of their width. */
  serialized(): string {
    this.serializedRows ??= this.rows.map((row) => row.styled + (row.continued ? '\u001b[0m' : '\u001b[0m\r\n')).join('');
    return this.serializedRows;
  }

  /** Each row's text, plain or `styled`, and whether it continues the row above. */
  texts(styled: boolean): { text: string; wrapped: boolean }[] {
    return this.rows.map((row) => ({ text: styled ? row.styled : row.styled.replace(SGR, '').slice(0, row.plainLength), wrapped: row.wrapped }));
  }
}
