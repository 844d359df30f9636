import { describe, expect, it } from 'vitest';
import { isInside } from './folders';

describe('isInside', () => {
  it('holds for the folder itself and what lies below it, not for a sibling that shares its name as a prefix', () => {
    expect(isInside('/data/wt/builder', '/data/wt/builder')).toBe(true);
    expect(isInside('/data/wt/builder', '/data/wt/builder/src/app')).toBe(true);
    expect(isInside('/data/wt/builder', '/data/wt/builder-2')).toBe(false);
    expect(isInside('/data/wt/builder', '/data/wt')).toBe(false);
    expect(isInside('/', '/anything')).toBe(true);
  });
});
