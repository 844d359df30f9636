import { useCallback, useEffect, useId, useState } from 'react';
import type { Agent } from '../../shared/entities/agents';
import type { MergeCheck, MergeStrategy, Worktree } from '../../shared/entities/worktrees';
import { countOf } from '../../shared/plural';
import { FormError } from '../components/FormError';
import { ModalDialog } from '../components/ModalDialog';
import { usePendingAction } from '../components/usePendingAction';
import { errorMessage } from '../format/errorMessage';
import { useBridge } from '../store/StoreContext';

interface MergeDialogProps {
  agent: Agent;
  worktree: Worktree;
  onClose(): void;
  /** The branch merged (the compare view then offers to archive the other agents). */
  onMerged?(): void;
}

const STRATEGIES: readonly { value: MergeStrategy; label: string; hint: string }[] = [
  { value: 'rebase', label: 'Rebase, then fast-forward', hint: 'Replays its commits on the parent in its worktree, then moves the parent to them: history stays linear.' },
  { value: 'squash', label: 'Squash into one commit', hint: 'Writes all of its changes as one commit on the parent; its branch continues from that commit.' },
];

/**
 * Merging an agent's branch into its parent: checked first without touching any checkout, then
 * merged the way the person picks; conflicts are listed and can be handed back to the agent.
 */
export function MergeDialog({ agent, worktree, onClose, onMerged }: MergeDialogProps) {
  const bridge = useBridge();
  const [check, setCheck] = useState<{ check: MergeCheck | null; error: string | null } | null>(null);
  const [strategy, setStrategy] = useState<MergeStrategy>('rebase');
  const [message, setMessage] = useState('');
  const [outcome, setOutcome] = useState<string | null>(null);
  const action = usePendingAction({ clearErrorOnStart: true });
  const strategyName = useId();
  const agentId = agent.id;
  const parent = worktree.parentBranch;

  const runCheck = useCallback(
    (isCurrent: () => boolean = () => true) =>
      bridge.call('checkWorktreeMerge', { agentId }).then(
        (answer) => isCurrent() && setCheck({ check: answer, error: null }),
        (failure: unknown) => isCurrent() && setCheck({ check: null, error: errorMessage(failure) }),
      ),
    [bridge, agentId],
  );
  useEffect(() => {
    let current = true;
    void runCheck(() => current);
    return () => {
      current = false;
    };
  }, [runCheck]);

  const merge = () =>
    void action.run(async () => {
      const merged = await bridge.call('mergeWorktree', { agentId, strategy, ...(strategy === 'squash' && message.trim() ? { message: message.trim() } : {}) });
      setOutcome(`Merged ${countOf(merged.commits, 'commit')} of ${worktree.branch} into ${parent}: ${parent} is now at ${merged.commit.slice(0, 10)}.`);
      onMerged?.();
    }, 'Could not merge: ');
  const handBack = () =>
    void action.run(async () => {
      await bridge.call('handBackWorktreeConflicts', { agentId });
      setOutcome(`Sent to ${agent.name}'s inbox: rebase on ${parent} and resolve the conflicts. It is woken with it when it is ready.`);
    }, 'Could not hand it back: ');

  const found = check?.check ?? null;
  const conflicts = found?.conflicts ?? [];
  return (
    <ModalDialog title={`Merge ${worktree.branch} into ${parent}`} className="merge-dialog" onClose={onClose}>
      {outcome ? (
        <p role="status" className="merge-dialog__outcome">
          {outcome}
        </p>
      ) : check === null ? (
        <p role="status">Checking for conflicts with git merge-tree (no checkout is touched)…</p>
      ) : found === null ? (
        <FormError message={`Could not check the merge: ${check.error ?? ''}`} />
      ) : conflicts.length > 0 ? (
        <>
          <p role="alert">
            Merging into {parent} conflicts in {countOf(conflicts.length, 'file')}. Nothing was changed.
          </p>
          <ul className="merge-dialog__conflicts" aria-label="Conflicting files">
            {conflicts.map((file) => (
              <li key={file}>
                <code>{file}</code>
              </li>
            ))}
          </ul>
        </>
      ) : found.problem ? (
        <p role="alert">{found.problem}</p>
      ) : (
        <>
          <p>
            {countOf(found.ahead, 'commit')} to merge; {parent} gained {countOf(found.behind, 'commit')} since {agent.name} started. No conflicts.
            {found.parentCheckout && ` The checkout of ${parent} at ${found.parentCheckout} is updated.`}
          </p>
          <fieldset className="merge-dialog__strategies">
            <legend className="field-label">How</legend>
            {STRATEGIES.map((option) => (
              <label key={option.value} className="workspace-fields__choice">
                <input type="radio" name={strategyName} value={option.value} checked={strategy === option.value} onChange={() => setStrategy(option.value)} />
                <span>
                  {option.label}
                  <span className="field-hint"> — {option.hint}</span>
                </span>
              </label>
            ))}
          </fieldset>
          {strategy === 'squash' && (
            <label className="field">
              <span className="field-label">Commit message</span>
              <textarea
                className="text-input text-area"
                rows={3}
                value={message}
                placeholder={`Merge ${worktree.branch} (${countOf(found.ahead, 'commit')}, squashed)`}
                onChange={(event) => setMessage(event.target.value)}
              />
            </label>
          )}
        </>
      )}
      <FormError message={action.error} />
      <div className="dialog__actions">
        {!outcome && found && (found.problem || conflicts.length > 0) && (
          <button type="button" className="button" disabled={action.pending} onClick={() => void runCheck()}>
            Check again
          </button>
        )}
        {!outcome && conflicts.length > 0 && (
          <button type="button" className="button button--primary" disabled={action.pending} onClick={handBack}>
            Hand back to {agent.name}
          </button>
        )}
        {!outcome && found && !found.problem && (
          <button type="button" className="button button--primary" disabled={action.pending} onClick={merge}>
            {action.pending ? 'Merging…' : `Merge into ${parent}`}
          </button>
        )}
      </div>
    </ModalDialog>
  );
}
