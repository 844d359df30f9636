import { describe, expect, it } from 'vitest';
import { formatDateTime } from './dateTime';

describe('formatDateTime', () => {
  it('writes a moment as Date#toLocaleString does', () => {
    for (const at of [0, 1_700_000_000_000, 1_767_225_599_000]) expect(formatDateTime(at)).toBe(new Date(at).toLocaleString());
  });
});
