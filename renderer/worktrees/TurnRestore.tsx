import { useId, useState } from 'react';
import type { Agent } from '../../shared/entities/agents';
import type { Turn } from '../../shared/turns';
import { ConfirmDialog } from '../components/ConfirmDialog';
import { FormError } from '../components/FormError';
import { usePendingAction } from '../components/usePendingAction';
import { useBridge } from '../store/StoreContext';
import { turnTitle } from './TurnList';

interface TurnRestoreProps {
  agent: Agent;
  /** The checkpoint the person is looking at. */
  turn: Turn;
  /** Why the agent's worktree cannot be restored now (it is busy, or tasks work in it), or null: shown beside the button. */
  refusal: string | null;
}

interface Restored {
  restoredTo: number;
  undo: number;
}

/** "Restore to checkpoint N…": asked first, then done with the state before kept, and undoable from here. */
export function TurnRestore({ agent, turn, refusal }: TurnRestoreProps) {
  const bridge = useBridge();
  const refusalId = useId();
  const [asking, setAsking] = useState(false);
  const [restored, setRestored] = useState<Restored | null>(null);
  const undo = usePendingAction();

  const restore = async (n: number) => {
    const result = await bridge.call('restoreTurn', { agentId: agent.id, n });
    setRestored({ restoredTo: result.restoredTo, undo: result.undo.n });
  };

  return (
    <>
      <button
        type="button"
        className="button button--ghost"
        disabled={refusal !== null}
        aria-describedby={refusal ? refusalId : undefined}
        title={refusal ?? `Put ${agent.name}'s files, index and HEAD back as checkpoint ${turn.n} had them`}
        onClick={() => setAsking(true)}
      >
        Restore to checkpoint {turn.n}…
      </button>
      {refusal && (
        <span id={refusalId} className="field-hint">
          {refusal}
        </span>
      )}
      {restored && (
        <span role="status" className="changes-dialog__restored">
          Restored checkpoint {restored.restoredTo}; what was there before is checkpoint {restored.undo}.{' '}
          <button
            type="button"
            className="button button--ghost button--row"
            // Not disabled while it runs (a second press does nothing): a disabled button would drop the focus, and the dialog's keys with it.
            disabled={refusal !== null}
            onClick={() => void undo.run(() => restore(restored.undo), 'Could not undo: ')}
          >
            Undo restore
          </button>
        </span>
      )}
      <FormError message={undo.error} />
      {asking && (
        <ConfirmDialog title={`Restore checkpoint ${turn.n} of ${agent.name}?`} confirmLabel="Restore" onConfirm={() => restore(turn.n)} onClose={() => setAsking(false)}>
          <p>
            {agent.name}'s worktree goes back to how it was at checkpoint {turn.n} ({turnTitle(turn)}): its files, what was staged, and its branch. Ignored files are left alone.
          </p>
          <p>What it holds now is kept as a checkpoint first, so you can undo this. {agent.name} is told in its inbox.</p>
        </ConfirmDialog>
      )}
    </>
  );
}
