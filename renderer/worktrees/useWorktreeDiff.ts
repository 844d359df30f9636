import { useEffect, useState } from 'react';
import type { Worktree, WorktreeDiff } from '../../shared/entities';
import { errorMessage } from '../format/errorMessage';
import { useConnection } from '../store/hooks';
import { useBridge } from '../store/StoreContext';

export interface DiffState {
  diff: WorktreeDiff | null;
  /** A newer read is on its way (the files changed, or the first read). */
  loading: boolean;
  error: string | null;
}

/**
 * The agent's diff, read again whenever its worktree changes: the host watches the worktree while
 * this view is open, and each change moves the worktree's `seq` (debounced on the host).
 */
export function useWorktreeDiff(worktree: Worktree): DiffState {
  const bridge = useBridge();
  const connection = useConnection();
  const { agentId, seq } = worktree;
  const [state, setState] = useState<DiffState & { readSeq: number | null }>({ diff: null, loading: true, error: null, readSeq: null });

  useEffect(() => {
    if (connection !== 'open') return;
    void bridge.call('watchWorktree', { agentId }).catch(() => {});
    return () => void bridge.call('unwatchWorktree', { agentId }).catch(() => {});
  }, [bridge, agentId, connection]);

  useEffect(() => {
    if (connection !== 'open') return;
    let current = true;
    bridge.call('getWorktreeDiff', { agentId }).then(
      (diff) => current && setState({ diff, loading: false, error: null, readSeq: seq }),
      (failure: unknown) => current && setState((previous) => ({ ...previous, loading: false, error: errorMessage(failure), readSeq: seq })),
    );
    return () => {
      current = false;
    };
  }, [bridge, agentId, seq, connection]);

  return { diff: state.diff, loading: state.loading || state.readSeq !== seq, error: state.error };
}
