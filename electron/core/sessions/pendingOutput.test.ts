import { describe, expect, it } from 'vitest';
import { PendingOutput } from './pendingOutput';

describe('PendingOutput', () => {
  it('holds everything below its limit and says nothing was dropped', () => {
    const pending = new PendingOutput(10);
    pending.push('abc');
    pending.push('def');
    expect(pending.take()).toEqual({ data: 'abcdef', dropped: false });
    expect(pending.isEmpty).toBe(true);
  });

  it('keeps only the newest output of a flood and says older output was dropped', () => {
    const pending = new PendingOutput(10);
    for (let i = 0; i < 1000; i++) pending.push(`${i % 10}`);
    expect(pending.take()).toEqual({ data: '0123456789', dropped: true });
    pending.push('x');
    expect(pending.take()).toEqual({ data: 'x', dropped: false });
  });
});
