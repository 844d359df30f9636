import { describe, expect, it } from 'vitest';
import { ScreenMirror } from './screenMirror';

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
});
