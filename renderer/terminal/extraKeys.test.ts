import { describe, expect, it } from 'vitest';
import { extraKeyData, withControl } from './extraKeys';

describe('the extra keys of a phone', () => {
  it('send what the real keys send, arrows as the program asked for them', () => {
    expect(extraKeyData('Escape', false)).toBe('\u001b');
    expect(extraKeyData('Tab', false)).toBe('\t');
    expect(extraKeyData('Enter', false)).toBe('\r');
    expect(extraKeyData('ArrowUp', false)).toBe('\u001b[A');
    expect(extraKeyData('ArrowLeft', false)).toBe('\u001b[D');
    expect(extraKeyData('ArrowDown', true)).toBe('\u001bOB');
    expect(extraKeyData('ArrowRight', true)).toBe('\u001bOC');
    expect(extraKeyData('Control', false)).toBe('');
  });

  it('Control makes the next letter its control character and leaves anything else alone', () => {
    expect(withControl('c')).toBe('\u0003');
    expect(withControl('C')).toBe('\u0003');
    expect(withControl('d')).toBe('\u0004');
    expect(withControl('[')).toBe('\u001b');
    expect(withControl('1')).toBe('1');
    expect(withControl('ab')).toBe('ab');
  });
});
