import { describe, expect, it } from 'vitest';
import { countOf } from './plural';

describe('countOf', () => {
  it('uses the singular for one and the plural otherwise', () => {
    expect(countOf(1, 'task')).toBe('1 task');
    expect(countOf(0, 'task')).toBe('0 tasks');
    expect(countOf(3, 'task running', 'tasks running')).toBe('3 tasks running');
  });
});
