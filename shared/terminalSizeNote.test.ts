import { describe, expect, it } from 'vitest';
import { readTerminalSizeNote, TERMINAL_SIZE_OSC, terminalSizeNote } from './terminalSizeNote';

describe('the PTY size note in a terminal stream', () => {
  it('is an OSC of its own number whose payload reads back as the size', () => {
    const note = terminalSizeNote({ cols: 194, rows: 24 });
    const prefix = `\u001b]${TERMINAL_SIZE_OSC};`;
    expect(note.startsWith(prefix) && note.endsWith('\u0007')).toBe(true);
    expect(readTerminalSizeNote(note.slice(prefix.length, -1))).toEqual({ cols: 194, rows: 24 });
  });

  it('reads nothing the host could not have sent: a size out of range, or anything else', () => {
    for (const payload of ['0;24', '80;0', '80;9999', '80', '80;24;1', 'a;b', ' 80;24', '']) expect(readTerminalSizeNote(payload), payload).toBeNull();
  });
});
