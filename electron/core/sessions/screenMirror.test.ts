import { Terminal } from '@xterm/headless';
import { describe, expect, it, vi } from 'vitest';
import { ScreenMirror } from './screenMirror';
import { SpilledScrollback } from './spilledScrollback';

describe('ScreenMirror', () => {
  it('reads a line the terminal wrapped as one line, with the space at the wrap', async () => {
    const mirror = new ScreenMirror(40, 5, 100);
    const line = '■ You’ve hit your usage limit. Visit the settings to purchase more credits or try again at 11:57 AM.';
    mirror.write(`${line}\r\n> `);
    const text = await mirror.text();
    expect(text.split('\n')).toContain(line);
    mirror.dispose();
  });

  it('tells whether the program asked for bracketed paste', async () => {
    const mirror = new ScreenMirror(40, 5, 100);
    expect(await mirror.bracketedPaste()).toBe(false);
    mirror.write('\u001b[?2004h');
    expect(await mirror.bracketedPaste()).toBe(true);
    mirror.write('\u001b[?2004l');
    expect(await mirror.bracketedPaste()).toBe(false);
    mirror.dispose();
  });

  it('reads out looks when asked: reverse video left on blanks shows, a wrapped line stays one', async () => {
    const mirror = new ScreenMirror(10, 4, 100);
    mirror.write('plain \u001b[1mbold\u001b[0m\r\n\u001b[7m   \u001b[27m\r\nwraps at ten columns');
    expect(await mirror.allText()).toBe('plain bold\n   \nwraps at ten columns');
    expect(await mirror.allText({ styled: true })).toBe('\u001b[0mplain \u001b[0;1mbold\n\u001b[0;7m   \n\u001b[0mwraps at t\u001b[0men columns');
    mirror.dispose();
  });

  describe('far behind a flood', () => {
    const size = { cols: 20, rows: 5, scrollback: 30 };
    /** A mirror that drops output once 2,000 characters behind, and one that never gets that far (the reference). */
    const mirrors = () => ({
      behind: new ScreenMirror(size.cols, size.rows, size.scrollback, () => {}, { farBehindChars: 2_000 }),
      reference: new ScreenMirror(size.cols, size.rows, size.scrollback),
    });
    const seen = async (mirror: ScreenMirror) => ({ snapshot: await mirror.snapshot(), text: await mirror.allText({ styled: true }), bracketedPaste: await mirror.bracketedPaste() });
    /**
     * Plain output in writes of every length: lines, long runs that wrap, a write that ends with a
     * wrap pending or mid-line; and (`oneLine`) a single line that wraps on and on, as `head -c`
     * of a file without line feeds, in writes that end anywhere on a row.
     */
    const plainFlood = async (write: (data: string) => void, writes: number, oneLine = false) => {
      for (let i = 0; i < writes; i++) {
        // Output comes over turns of the loop, as a PTY's does: the mirror parses a slice per turn.
        if (i % 20 === 0) await new Promise((resolve) => setTimeout(resolve, 0));
        if (oneLine) write(String.fromCharCode(97 + (i % 26)).repeat(37 + (i % 13)));
        else if (i % 3 === 0) write(`line ${i} of the flood\r\n`);
        else if (i % 3 === 1) write('a'.repeat(size.cols * (1 + (i % 4))));
        else write(`${'b'.repeat(i % size.cols)}\r\nhalf ${i}`);
      }
    };

    it('drops what plain output after it pushes out, and reads as a mirror that parsed every byte', async () => {
      const { behind, reference } = mirrors();
      let total = 0;
      const write = (data: string) => {
        total += data.length;
        behind.write(data);
        reference.write(data);
      };
      for (let round = 0; round < 3; round++) {
        write(`\u001b[?2004h\u001b]0;title ${round}\u0007\u001b[1;3${round}m$ flood ${round}\u001b[0m\r\n\u001b[4m`);
        await plainFlood(write, 1000 + round * 7, round === 1);
        // What the flood wrote before its last scrollback and two screens of lines is gone already: it holds far less than came.
        expect(total).toBeGreaterThan(9_000);
        expect(behind.backlog).toBeLessThan(total / 3);
        write(`\u001b[24m\u001b[?1049h\u001b[2;3Hdrawn in the alternate screen ${round}`);
        if (round < 2) write('\u001b[?1049l');
        expect(await seen(behind)).toEqual(await seen(reference));
        total = 0;
      }
      behind.dispose();
      reference.dispose();
    });

    it('cuts a backlog short of far behind before a reader makes it parse, rather than parse what the scrollback lets go', async () => {
      const parse = vi.spyOn(Terminal.prototype, 'write');
      const cutting = new ScreenMirror(size.cols, size.rows, size.scrollback);
      const reference = new ScreenMirror(size.cols, size.rows, size.scrollback);
      let written = 0;
      for (let i = 0; i < 5_000; i++) {
        const line = `line ${i}\r\n`;
        written += line.length;
        cutting.write(line);
        // The same, with a sequence that changes nothing: output that is not plain is never cut.
        reference.write(`${line}\u001b[m`);
      }
      /** What xterm was given to parse by the mirror's own terminal. */
      const parsedBy = (mirror: ScreenMirror) => {
        const own = (mirror as unknown as { terminal: Terminal }).terminal;
        let chars = 0;
        parse.mock.contexts.forEach((terminal, call) => {
          if (terminal === own) chars += String(parse.mock.calls[call]?.[0]).length;
        });
        return chars;
      };
      expect(await seen(cutting)).toEqual(await seen(reference));
      // Its scrollback and two screens of lines, of some 5,000.
      expect(parsedBy(cutting)).toBeLessThan(written / 20);
      expect(parsedBy(reference)).toBeGreaterThan(written);
      parse.mockRestore();
      cutting.dispose();
      reference.dispose();
    });

    it('keeps every byte where plain output may do more than push lines out: inside a sequence, a scroll region, the alternate screen', async () => {
      const cases = ['\u001b]0;a title that goes on ', '\u001b[2;4r\u001b[4;1H', '\u001b[?1049h\u001b[2;5r', '\u001b[4h', '\u001b[?7l'];
      for (const [n, start] of cases.entries()) {
        const { behind, reference } = mirrors();
        const write = (data: string) => {
          behind.write(data);
          reference.write(data);
        };
        write(`status line\r\n${start}`);
        await plainFlood(write, 1000, n % 2 === 0);
        write('\u0007\u001b[r\u001b[?1049l\u001b[4l\u001b[?7h end\r\n');
        expect(await seen(behind), JSON.stringify(start)).toEqual(await seen(reference));
        behind.dispose();
        reference.dispose();
      }
    });
  });

  describe('a scrollback spilled to text', () => {
    const size = { cols: 20, rows: 5, scrollback: 60 };
    /** A mirror that keeps 4 rows of scrollback live and spills the rest, and one that keeps all of it live (the reference). */
    const mirrors = () => ({
      spilling: new ScreenMirror(size.cols, size.rows, size.scrollback, () => {}, { liveScrollbackRows: 4, spillEveryMs: 1 }),
      reference: new ScreenMirror(size.cols, size.rows, size.scrollback, () => {}, { liveScrollbackRows: 10_000 }),
    });
    const seen = async (mirror: ScreenMirror) => ({ snapshot: await mirror.snapshot(), styled: await mirror.allText({ styled: true }), plain: await mirror.allText() });
    /** The spills that follow a parse, in later turns of the event loop, are done. */
    const spilled = (mirror: ScreenMirror) => vi.waitFor(() => expect(mirror.liveRows).toBeLessThanOrEqual(size.rows + 2 * 4));
    /** Busy output: colours and flags, wide characters, lines that wrap, blanks with a background and trailing spaces. */
    const busyOutput = (i: number) =>
      [
        `\u001b[1;3${i % 8}m❯\u001b[0m step ${i}\r\n`,
        `wide 漢字 ${i} 😀 e\u0301\r\n`,
        `${'a line that wraps '.repeat(1 + (i % 3))}${i}\r\n`,
        `\u001b[44m  \u001b[0m blue ${i}   \r\n`,
        `\u001b[41m\u001b[K\u001b[0m${'x'.repeat(size.cols)}\r\n`,
      ][i % 5] as string;

    it('reads, and serializes, as a mirror that keeps every row live, while it holds only a few', async () => {
      const { spilling, reference } = mirrors();
      for (let i = 0; i < 400; i++) {
        const data = busyOutput(i);
        spilling.write(data);
        reference.write(data);
        if (i % 37 === 0) expect(await seen(spilling), `after ${i}`).toEqual(await seen(reference));
      }
      expect(await seen(spilling)).toEqual(await seen(reference));
      await spilled(spilling);
      expect(await seen(spilling)).toEqual(await seen(reference));
      expect(reference.liveRows).toBe(size.rows + size.scrollback);
      spilling.dispose();
      reference.dispose();
    });

    it('erases the spilled rows with the scrollback (ED 3), on a full reset (RIS), and past a smaller scrollback', async () => {
      for (const end of ['\u001b[3J', '\u001b[?1049h\u001b[3J\u001b[?1049l', '\u001bc', 'smaller']) {
        const { spilling, reference } = mirrors();
        for (let i = 0; i < 100; i++) {
          const data = busyOutput(i);
          spilling.write(data);
          reference.write(data);
        }
        // Parsed and spilled, so the spilling mirror has spilled rows when the erase comes.
        expect(await seen(spilling)).toEqual(await seen(reference));
        await spilled(spilling);
        if (end === 'smaller') {
          spilling.setScrollbackLines(20);
          reference.setScrollbackLines(20);
        } else {
          spilling.write(end);
          reference.write(end);
        }
        spilling.write('after\r\n');
        reference.write('after\r\n');
        expect(await seen(spilling), JSON.stringify(end)).toEqual(await seen(reference));
        spilling.dispose();
        reference.dispose();
      }
    });

    it('spills a line longer than its scrollback (a flood with no newline), cut inside as the scrollback cuts it', async () => {
      const { spilling, reference } = mirrors();
      for (const piece of ['\u001b[32mgreen\u001b[0m', 'a'.repeat(size.cols * (size.scrollback + 3) + 7), 'b'.repeat(size.cols * 20 + 3)]) {
        spilling.write(piece);
        reference.write(piece);
        expect(await seen(spilling)).toEqual(await seen(reference));
        await spilled(spilling);
        expect(await seen(spilling)).toEqual(await seen(reference));
      }
      spilling.write('\r\nafter\r\n');
      reference.write('\r\nafter\r\n');
      expect(await seen(spilling)).toEqual(await seen(reference));
      expect(spilling.liveRows).toBeLessThanOrEqual(size.rows + 2 * 4);
      spilling.dispose();
      reference.dispose();
    });

    it('spills a flood of lines once it is parsed, not the rows that later lines of the flood push out', async () => {
      const take = vi.spyOn(SpilledScrollback.prototype, 'take');
      const { spilling, reference } = mirrors();
      // 200 kB of lines: many of the pieces xterm parses at a time, each filling the scrollback.
      const flood = Array.from({ length: 20_000 }, (_, i) => `line ${i}\r\n`).join('');
      spilling.write(flood);
      reference.write(flood);
      expect(await seen(spilling)).toEqual(await seen(reference));
      await spilled(spilling);
      const rowsTaken = take.mock.calls.reduce((sum, [, end]) => sum + end, 0);
      expect(rowsTaken).toBeGreaterThan(0);
      expect(rowsTaken).toBeLessThanOrEqual(size.scrollback);
      expect(await seen(spilling)).toEqual(await seen(reference));
      take.mockRestore();
      spilling.dispose();
      reference.dispose();
    });
  });
});
