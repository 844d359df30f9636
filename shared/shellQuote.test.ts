import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { shellQuote } from './shellQuote';

describe('shellQuote', () => {
  it.each(["plain", "it's", "a b", '$HOME `x` "y"', "'", ''])('survives the shell unchanged: %j', (word) => {
    expect(execFileSync('/bin/sh', ['-c', `printf %s ${shellQuote(word)}`], { encoding: 'utf8' })).toBe(word);
  });
});
