import { describe, expect, it } from 'vitest';
import { countOf, listNames } from './plural';

describe('countOf', () => {
  it('uses the singular for one and the plural otherwise', () => {
    expect(countOf(1, 'task')).toBe('1 task');
    expect(countOf(0, 'task')).toBe('0 tasks');
    expect(countOf(3, 'task running', 'tasks running')).toBe('3 tasks running');
  });
});

describe('listNames', () => {
  it('lists up to eight names, then says how many more there are', () => {
    expect(listNames(['a.txt', 'b.txt'])).toBe('a.txt, b.txt');
    const many = Array.from({ length: 11 }, (_, n) => `f${n}`);
    expect(listNames(many)).toBe('f0, f1, f2, f3, f4, f5, f6, f7 and 3 more');
  });
});
