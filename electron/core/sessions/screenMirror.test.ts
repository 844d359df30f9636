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
});
