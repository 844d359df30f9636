import { describe, expect, it } from 'vitest';
import { CombiningMarkCap, MAX_MARKS_PER_CHARACTER } from './combiningMarks';

const ACUTE = '\u0301';

describe('CombiningMarkCap', () => {
  it('keeps ordinary text and a few marks as they are', () => {
    const cap = new CombiningMarkCap();
    const text = 'Tiếng Việt, e\u0301\u0323, नमस्ते, \u{1F469}\u200D\u{1F4BB} and plain ASCII\r\n';
    expect(cap.cap(text)).toBe(text);
  });

  it('cuts a run of 50,000 marks on one character down to the cap', () => {
    const cap = new CombiningMarkCap();
    expect(cap.cap(`e${ACUTE.repeat(50_000)}x`)).toBe(`e${ACUTE.repeat(MAX_MARKS_PER_CHARACTER)}x`);
  });

  it('counts a run across chunk boundaries, and starts again at the next character', () => {
    const cap = new CombiningMarkCap();
    const parts = [cap.cap(`e${ACUTE.repeat(10)}`), cap.cap(ACUTE.repeat(10)), cap.cap(''), cap.cap(`${ACUTE.repeat(10)}a${ACUTE.repeat(3)}`)];
    expect(parts.join('')).toBe(`e${ACUTE.repeat(MAX_MARKS_PER_CHARACTER)}a${ACUTE.repeat(3)}`);
  });

  it('counts marks outside the Basic Multilingual Plane as one each and never splits a pair', () => {
    const cap = new CombiningMarkCap();
    const astralMark = '\u{1D167}';
    const capped = cap.cap(`o${astralMark.repeat(40)}`);
    expect(capped).toBe(`o${astralMark.repeat(MAX_MARKS_PER_CHARACTER)}`);
  });
});
