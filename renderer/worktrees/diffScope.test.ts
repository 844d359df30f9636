import { describe, expect, it } from 'vitest';
import type { Turn } from '../../shared/turns';
import { scopeOf, stepTurn, WHOLE_BRANCH } from './diffScope';

const turns = [0, 1, 2, 3].map((n) => ({ n }) as Turn);

describe('stepping through turns in the changes view', () => {
  it('goes from the whole branch to the latest turn (or the first), then one at a time, stopping at the ends', () => {
    expect(stepTurn(WHOLE_BRANCH, turns, 1)).toEqual({ kind: 'turn', n: 3 });
    expect(stepTurn(WHOLE_BRANCH, turns, -1)).toEqual({ kind: 'turn', n: 0 });
    expect(stepTurn({ kind: 'turn', n: 2 }, turns, -1)).toEqual({ kind: 'turn', n: 1 });
    expect(stepTurn({ kind: 'turn', n: 3 }, turns, 1)).toEqual({ kind: 'turn', n: 3 });
    expect(stepTurn({ kind: 'since', n: 1 }, turns, 1)).toEqual({ kind: 'since', n: 2 });
  });

  it('stays on the whole branch while there are no turns', () => {
    expect(stepTurn(WHOLE_BRANCH, [], 1)).toBe(WHOLE_BRANCH);
    expect(scopeOf('turn', [], null)).toBe(WHOLE_BRANCH);
  });

  it('switches the kind of scope at the turn a person is at, else at the latest', () => {
    expect(scopeOf('since', turns, 1)).toEqual({ kind: 'since', n: 1 });
    expect(scopeOf('turn', turns, null)).toEqual({ kind: 'turn', n: 3 });
    expect(scopeOf('branch', turns, 2)).toBe(WHOLE_BRANCH);
  });
});
