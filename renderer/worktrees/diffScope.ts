import type { Turn } from '../../shared/turns';

/** What the changes view shows: the branch's whole change, one checkpoint's change, or everything since one. */
export type DiffScope = { kind: 'branch' } | { kind: 'turn'; n: number } | { kind: 'since'; n: number };

export const WHOLE_BRANCH: DiffScope = { kind: 'branch' };

/** The checkpoint a turn scope is about, or null for the whole branch. */
export function scopeTurn(scope: DiffScope): number | null {
  return scope.kind === 'branch' ? null : scope.n;
}

/** The scope `kind` for the checkpoint a person is at (the latest turn when none was picked). */
export function scopeOf(kind: DiffScope['kind'], turns: readonly Turn[], current: number | null): DiffScope {
  if (kind === 'branch') return WHOLE_BRANCH;
  const n = current ?? turns.at(-1)?.n;
  return n === undefined ? WHOLE_BRANCH : { kind, n };
}

/**
 * One checkpoint on (1) or back (-1) from where the scope is; from the whole branch it goes to the
 * latest (or first) turn. A scope already at the end stays.
 */
export function stepTurn(scope: DiffScope, turns: readonly Turn[], direction: 1 | -1): DiffScope {
  if (turns.length === 0) return scope;
  const current = scopeTurn(scope);
  const at = current === null ? -1 : turns.findIndex((turn) => turn.n === current);
  const next = current === null ? (direction === 1 ? turns.length - 1 : 0) : Math.min(turns.length - 1, Math.max(0, at + direction));
  const n = turns[next]?.n ?? 0;
  return { kind: scope.kind === 'since' ? 'since' : 'turn', n };
}
