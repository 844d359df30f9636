import { useEffect, useState } from 'react';
import type { Worktree, WorktreeDiff, WorktreeDiffFile } from '../../shared/entities/worktrees';
import type { Bridge } from '../bridge';
import { errorMessage } from '../format/errorMessage';
import { useConnection } from '../store/hooks';
import { useBridge } from '../store/StoreContext';
import type { DiffScope } from './diffScope';

/** A diff of any scope: the files, their counts, and (for the whole branch) its commits. */
export interface ScopedDiff {
  /** What the files are compared against: the branch's fork point, or a checkpoint. */
  base: string;
  files: readonly WorktreeDiffFile[];
  additions: number;
  deletions: number;
  commits: WorktreeDiff['commits'] | null;
}

export interface DiffState {
  diff: ScopedDiff | null;
  /** A newer read is on its way (the files changed, or the first read). */
  loading: boolean;
  error: string | null;
}

/** Reads of whole-branch diffs started as a Changes view was asked for, by agent. */
const readsAhead = new Map<string, Promise<WorktreeDiff>>();

/**
 * Starts reading the agent's whole-branch diff as its Changes view is asked for, before the view
 * has rendered: the host reads it while the page draws the view, whose first read takes it.
 */
export function readDiffAhead(bridge: Bridge, agentId: string): void {
  const read = bridge.call('getWorktreeDiff', { agentId });
  // The view that takes the read reports its failure.
  read.catch(() => {});
  readsAhead.set(agentId, read);
}

/** The read started ahead for this agent, taken once: the view's first read takes it or drops it. */
function takeReadAhead(agentId: string): Promise<WorktreeDiff> | undefined {
  const read = readsAhead.get(agentId);
  readsAhead.delete(agentId);
  return read;
}

function scopeKey(scope: DiffScope): string {
  return scope.kind === 'branch' ? 'branch' : `${scope.kind}:${scope.n}`;
}

/**
 * The agent's diff in the scope asked for, read again whenever its worktree changes (the host
 * watches the worktree while this view is open; each change moves the worktree's `seq`, debounced),
 * except one checkpoint's change, which never changes.
 */
export function useWorktreeDiff(worktree: Worktree, scope: DiffScope): DiffState {
  const bridge = useBridge();
  const connection = useConnection();
  const { agentId, seq } = worktree;
  const { kind } = scope;
  const n = scope.kind === 'branch' ? null : scope.n;
  const scoped = scopeKey(scope);
  const readKey = kind === 'turn' ? scoped : `${scoped}@${seq}`;
  const [state, setState] = useState<DiffState & { readKey: string | null; scoped: string | null }>({ diff: null, loading: true, error: null, readKey: null, scoped: null });

  useEffect(() => {
    if (connection !== 'open') return;
    void bridge.call('watchWorktree', { agentId }).catch(() => {});
    return () => void bridge.call('unwatchWorktree', { agentId }).catch(() => {});
  }, [bridge, agentId, connection]);

  useEffect(() => {
    const ahead = takeReadAhead(agentId);
    if (connection !== 'open') return;
    let current = true;
    const read: Promise<ScopedDiff> =
      n === null
        ? (ahead ?? bridge.call('getWorktreeDiff', { agentId }))
        : bridge.call('getTurnDiff', { agentId, from: n, to: kind === 'turn' ? n : null }).then((diff) => ({ ...diff, commits: null }));
    read.then(
      (diff) => current && setState({ diff, loading: false, error: null, readKey, scoped }),
      (failure: unknown) => current && setState((previous) => ({ ...previous, loading: false, error: errorMessage(failure), readKey, scoped })),
    );
    return () => {
      current = false;
    };
  }, [bridge, agentId, kind, n, readKey, scoped, connection]);

  // Another scope's diff is never shown for this one, not even while this one is read.
  const sameScope = state.scoped === scoped;
  return { diff: sameScope ? state.diff : null, loading: state.loading || state.readKey !== readKey, error: sameScope ? state.error : null };
}
