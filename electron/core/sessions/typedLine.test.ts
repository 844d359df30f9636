import { describe, expect, it } from 'vitest';
import { TypedLine } from './typedLine';

describe('TypedLine', () => {
  it('names the command each Enter submits, key by key as a terminal sends them', () => {
    const line = new TypedLine();
    expect([...'echo hi'].flatMap((key) => line.feed(key))).toEqual([]);
    expect(line.feed('\r')).toEqual([{ text: 'echo hi' }]);
    expect(line.feed('ls -l\rpwd\r')).toEqual([{ text: 'ls -l' }, { text: 'pwd' }]);
  });

  it('follows Backspace, Ctrl-U, Ctrl-W and Ctrl-C', () => {
    const line = new TypedLine();
    expect(line.feed('mkae\u007f\u007f\u007fake\r')).toEqual([{ text: 'make' }]);
    expect(line.feed('rm -rf /\u0015git status\r')).toEqual([{ text: 'git status' }]);
    expect(line.feed('git commit oops\u0017-q\r')).toEqual([{ text: 'git commit -q' }]);
    expect(line.feed('never mind\u0003ls\r')).toEqual([{ text: 'ls' }]);
  });

  it('submits nothing for an empty line', () => {
    expect(new TypedLine().feed('   \r\r')).toEqual([]);
  });

  it('knows it cannot tell a line shaped by history, completion or cursor keys', () => {
    const line = new TypedLine();
    expect(line.feed('\u001b[A\r')).toEqual([{ text: null }]);
    expect(line.feed('gi\tstatus\r')).toEqual([{ text: null }]);
    expect(line.feed('echo ab\u001b[Dc\r')).toEqual([{ text: null }]);
    // The next line is followed again.
    expect(line.feed('date\r')).toEqual([{ text: 'date' }]);
  });

  it('takes a bracketed paste as typed, newlines included', () => {
    const line = new TypedLine();
    expect(line.feed('\u001b[200~printf a\nprintf b\u001b[201~\r')).toEqual([{ text: 'printf a\nprintf b' }]);
  });
});
