import { useEffect, useId, useState } from 'react';
import type { Agent } from '../../shared/entities/agents';
import type { Worktree, WorktreeStatus } from '../../shared/entities/worktrees';
import { countOf } from '../../shared/plural';
import { FormError } from '../components/FormError';
import { useModal } from '../components/useModal';
import { usePendingAction } from '../components/usePendingAction';
import { errorMessage } from '../format/errorMessage';
import { useBridge, useDroverActions } from '../store/StoreContext';

interface RemoveAgentDialogProps {
  agent: Agent;
  /** The agent's own worktree, if it has one. */
  worktree: Worktree | undefined;
  onClose(): void;
}

function workSummary(status: WorktreeStatus): string | null {
  const parts = [
    status.uncommittedFiles > 0 ? `${countOf(status.uncommittedFiles, 'uncommitted file')}` : null,
    status.ahead > 0 ? `${countOf(status.ahead, 'commit')} ${status.parentBranch} lacks` : null,
  ].filter((part): part is string => part !== null);
  return parts.length > 0 ? parts.join(' and ') : null;
}

/**
 * Removing an agent. With a worktree holding work (uncommitted files, commits its parent lacks)
 * the safe answer keeps its branch (uncommitted files committed onto it first); discarding is a
 * separate, explicit choice.
 */
export function RemoveAgentDialog({ agent, worktree, onClose }: RemoveAgentDialogProps) {
  const { removeAgent } = useDroverActions();
  const bridge = useBridge();
  const dialogRef = useModal();
  const removing = usePendingAction({ clearErrorOnStart: true });
  const [status, setStatus] = useState<{ status: WorktreeStatus | null; error: string | null } | null>(null);
  const titleId = useId();
  const bodyId = useId();
  const agentId = agent.id;
  const ownsFolder = worktree?.ownsFolder ?? false;

  useEffect(() => {
    if (!ownsFolder) return;
    let current = true;
    bridge.call('getWorktreeStatus', { agentId }).then(
      (answer) => current && setStatus({ status: answer, error: null }),
      (failure: unknown) => current && setStatus({ status: null, error: errorMessage(failure) }),
    );
    return () => {
      current = false;
    };
  }, [bridge, agentId, ownsFolder]);

  const work = status?.status ? workSummary(status.status) : null;
  const remove = (discardWork: boolean) =>
    void removing.run(async () => {
      await removeAgent(agentId, discardWork);
      dialogRef.current?.close();
    });

  let body: string;
  if (!worktree) body = 'Drover stops its session if it is running, then forgets the agent and its terminal.';
  else if (!worktree.ownsFolder) body = `Drover stops its session and forgets the agent. Its worktree ${worktree.path} and branch ${worktree.branch} stay as they are: Drover did not make them.`;
  else if (status === null) body = `Looking at ${worktree.branch}…`;
  else if (work) {
    body =
      `${worktree.branch} has ${work}. Removing ${agent.name} deletes its worktree folder and keeps the branch with that work` +
      `${status.status && status.status.uncommittedFiles > 0 ? ' (the uncommitted files are committed onto it first)' : ''}: merge it or check it out later.`;
  } else body = `Its worktree has no work ${worktree.parentBranch} lacks: the worktree folder and its branch ${worktree.branch} are deleted.`;

  const canDiscard = worktree?.ownsFolder && work !== null;
  return (
    <dialog ref={dialogRef} role="alertdialog" aria-labelledby={titleId} aria-describedby={bodyId} className="dialog remove-agent-dialog" onClose={onClose}>
      <h2 id={titleId} className="dialog__title">
        Remove {agent.name}?
      </h2>
      <div id={bodyId} className="dialog__body">
        <p>{body}</p>
      </div>
      <FormError message={status?.error ? `Could not look at its worktree: ${status.error}` : null} />
      {removing.pending && (
        <p role="status" className="dialog__progress">
          Removing {agent.name}: stopping its session{worktree?.ownsFolder ? ', saving and deleting its worktree' : ''}…
        </p>
      )}
      <FormError message={removing.error} />
      <div className="dialog__actions">
        <button type="button" className="button" autoFocus onClick={() => dialogRef.current?.close()}>
          Cancel
        </button>
        {canDiscard && (
          <button type="button" className="button button--danger" disabled={removing.pending} onClick={() => remove(true)}>
            Remove and discard its work
          </button>
        )}
        <button
          type="button"
          className={canDiscard ? 'button button--primary' : 'button button--danger'}
          disabled={removing.pending || (ownsFolder && status === null)}
          onClick={() => remove(false)}
        >
          {removing.pending ? 'Removing…' : canDiscard ? 'Remove agent, keep branch' : 'Remove agent'}
        </button>
      </div>
    </dialog>
  );
}
