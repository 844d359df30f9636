import { describe, expect, it } from 'vitest';
import { quoted, withLinesOnly, withoutControls } from './terminalText';

describe('text the CLI prints for people', () => {
  it('leaves ordinary values alone, quotes a command with quotes inside as it is', () => {
    expect(quoted('src/app.ts')).toBe('src/app.ts');
    expect(quoted('npm test -- --grep "a b"')).toBe('npm test -- --grep "a b"');
    expect(quoted('café ☕')).toBe('café ☕');
  });

  it('quotes a value holding control characters the way git quotes a file name', () => {
    expect(quoted('a\u001b]52;c;aGk=\u0007b')).toBe('"a\\033]52;c;aGk=\\ab"');
    expect(quoted('one\ntwo\tthree\r')).toBe('"one\\ntwo\\tthree\\r"');
    expect(quoted('say "hi"\\\u001b[2J')).toBe('"say \\"hi\\"\\\\\\033[2J"');
    // C1 controls (a one-character CSI) and bidirectional overrides, as UTF-8 bytes in octal.
    expect(quoted('x\u009b2Jy')).toBe('"x\\302\\2332Jy"');
    expect(quoted('abc\u202edef')).toBe('"abc\\342\\200\\256def"');
  });

  it('quotes a value that starts with a quote, so no plain value reads as a quoted one', () => {
    expect(quoted('"a\\nb"')).toBe('"\\"a\\\\nb\\""');
  });

  it('escapes the control characters of a message in place', () => {
    expect(withoutControls('No agent x\u001b]0;owned\u0007 in this project')).toBe('No agent x\\033]0;owned\\a in this project');
  });

  it('keeps the lines of a text of several lines, and escapes every other control character', () => {
    expect(withLinesOnly('first\n\tsecond\u001b]52;c;aGk=\u0007\r\u001b[2Jthird\u202e')).toBe('first\n\tsecond\\033]52;c;aGk=\\a\\r\\033[2Jthird\\342\\200\\256');
  });
});
