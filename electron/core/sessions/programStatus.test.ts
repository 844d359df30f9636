import { describe, expect, it } from 'vitest';
import { ProgramStatusScanner } from './programStatus';

/** As Codex 0.171.0 wrote them (raw PTY output of the real CLI). */
const WORKING = '\u001b]7501;state=working:app=codex\u001b\\';
const BLOCKED = '\u001b]7501;state=blocked:app=codex:kind=permission\u001b\\';
const DONE = '\u001b]7501;state=done:app=codex\u001b\\';

describe('ProgramStatusScanner', () => {
  it('reads each report in order, among other output', () => {
    const scanner = new ProgramStatusScanner();
    expect(scanner.feed(`\u001b]0;⠦ task | proj\u0007${WORKING}text${BLOCKED}more${DONE}`)).toEqual(['working', 'blocked', 'done']);
  });

  it('finds a report split across chunks, at any point', () => {
    for (let cut = 1; cut < BLOCKED.length; cut++) {
      const scanner = new ProgramStatusScanner();
      expect([...scanner.feed(`abc${BLOCKED.slice(0, cut)}`), ...scanner.feed(`${BLOCKED.slice(cut)}xyz`)]).toEqual(['blocked']);
    }
  });

  it('ignores other OSC sequences and unknown states, and never buffers a runaway sequence', () => {
    const scanner = new ProgramStatusScanner();
    expect(scanner.feed('\u001b]7501;state=dancing:app=codex\u0007\u001b]52;c;aGk=\u0007')).toEqual([]);
    expect(scanner.feed(`\u001b]7501;${'x'.repeat(1000)}`)).toEqual([]);
    expect(scanner.feed(`\u0007${DONE}`)).toEqual(['done']);
  });
});
