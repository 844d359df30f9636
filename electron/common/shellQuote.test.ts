import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { shellLine, shellQuote } from './shellQuote';

/** The words a shell line hands to the program it runs, one per line. */
function argvOf(line: string): string[] {
  const printed = execFileSync('/bin/sh', ['-c', `printf '%s\\n' ${line}`], { encoding: 'utf8' });
  return printed.split('\n').slice(0, -1);
}

describe('shellQuote', () => {
  it.each(["plain", "it's", "a b", '$HOME `x` "y"', "'", ''])('survives the shell unchanged: %j', (word) => {
    expect(execFileSync('/bin/sh', ['-c', `printf %s ${shellQuote(word)}`], { encoding: 'utf8' })).toBe(word);
  });
});

describe('shellLine', () => {
  it('keeps every word of an argv as one word, quoting only where the shell would act', () => {
    const words = ['npm', 'test', '--', '--grep', 'a b', "it's", '$HOME', '*', '', 'x;y', '~/notes.txt', '=ls', 'KEY=value'];
    expect(argvOf(shellLine(words))).toEqual(words);
    expect(shellLine(['npm', 'test', '--', '--grep', 'a b'])).toBe("npm test -- --grep 'a b'");
  });
});
