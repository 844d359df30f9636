import { useState } from 'react';
import type { Agent } from '../../shared/entities/agents';
import type { WorktreeDiffFile } from '../../shared/entities/worktrees';
import { splitHunks } from '../../shared/diffHunks';
import { FormError } from '../components/FormError';
import { usePendingAction } from '../components/usePendingAction';
import { useBridge } from '../store/StoreContext';

interface Reverted {
  what: string;
  undo: number;
}

export interface ChangeRevert {
  hunk(file: WorktreeDiffFile, hunkIndex: number): void;
  file(file: WorktreeDiffFile): void;
  pending: boolean;
  error: string | null;
  reverted: Reverted | null;
  /** Restores the checkpoint the last revert kept, which puts the change back. */
  undo(): void;
  /** Says why a revert asked for by key cannot happen now. */
  refuse(reason: string): void;
}

/**
 * Reverting a hunk or a whole file of the diff from `base` to the worktree now: the host keeps what
 * the worktree held as a checkpoint first, and restoring that checkpoint is the undo.
 */
export function useChangeRevert(agent: Agent, base: string | null): ChangeRevert {
  const bridge = useBridge();
  const [reverted, setReverted] = useState<Reverted | null>(null);
  const action = usePendingAction();

  const send = (file: WorktreeDiffFile, target: { kind: 'hunk'; hunk: string } | { kind: 'file'; patch: string }) => {
    if (base === null) return;
    void action.run(async () => {
      const result = await bridge.call('revertChange', { agentId: agent.id, base, path: file.path, oldPath: file.oldPath, target });
      setReverted({ what: result.undo.prompt ?? file.path, undo: result.undo.n });
    }, 'Could not revert: ');
  };

  return {
    hunk: (file, hunkIndex) => {
      const hunk = splitHunks(file.patch ?? '').hunks[hunkIndex];
      if (hunk !== undefined) send(file, { kind: 'hunk', hunk });
    },
    file: (file) => send(file, { kind: 'file', patch: file.patch ?? '' }),
    pending: action.pending,
    error: action.error,
    refuse: (reason) => action.setError(`Could not revert: ${reason}`),
    reverted,
    undo: () => {
      if (!reverted) return;
      void action.run(async () => {
        await bridge.call('restoreTurn', { agentId: agent.id, n: reverted.undo });
        setReverted(null);
      }, 'Could not undo the revert: ');
    },
  };
}

/** What the last revert did and its Undo, or why a revert failed. */
export function RevertStatus({ revert, refusal }: { revert: ChangeRevert; refusal: string | null }) {
  return (
    <>
      {revert.reverted && (
        <span role="status" className="changes-dialog__restored">
          Reverted {revert.reverted.what}; what was there before is checkpoint {revert.reverted.undo}.{' '}
          <button type="button" className="button button--ghost button--row" disabled={refusal !== null} title={refusal ?? undefined} onClick={revert.undo}>
            Undo revert
          </button>
        </span>
      )}
      <FormError message={revert.error} />
    </>
  );
}
