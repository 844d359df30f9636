import { useState } from 'react';
import type { Agent, FormerAgent } from '../../shared/entities/agents';
import { FormError } from '../components/FormError';
import { ModalDialog } from '../components/ModalDialog';
import { usePendingAction } from '../components/usePendingAction';
import { useDroverActions } from '../store/StoreContext';

interface KeptBranchesDialogProps {
  projectId: string;
  /** Removed agents whose branch is kept and no agent works on. */
  kept: readonly FormerAgent[];
  agents: readonly Agent[];
  onClose(): void;
}

/** The first of `name`, `name 2`, `name 3`… that no agent of the project has (names are unique, in any case). */
function freeName(name: string, agents: readonly Agent[]): string {
  const taken = new Set(agents.map((agent) => agent.name.toLowerCase()));
  for (let n = 1; ; n++) {
    const candidate = n === 1 ? name : `${name} ${n}`;
    if (!taken.has(candidate.toLowerCase())) return candidate;
  }
}

/**
 * The branches kept with removed agents' work: attach one to a new agent (its worktree on that
 * branch, the removed agent's name, role and profile), or delete it, which asks once more while
 * the branch holds work its parent lacks.
 */
export function KeptBranchesDialog({ projectId, kept, agents, onClose }: KeptBranchesDialogProps) {
  const { createAgent, deleteKeptBranch } = useDroverActions();
  const { pending, error, run } = usePendingAction();
  const [confirming, setConfirming] = useState<string | null>(null);

  const attach = (former: FormerAgent) =>
    void run(async () => {
      await createAgent({
        projectId,
        name: freeName(former.name, agents),
        role: former.role,
        profileId: former.profileId,
        workspace: { kind: 'existing-branch', branch: former.keptBranch ?? '', ...(former.parentBranch ? { parent: former.parentBranch } : {}) },
      });
      if (kept.length === 1) onClose();
    }, `Could not attach ${former.keptBranch}: `);

  const remove = (former: FormerAgent, force: boolean) =>
    void run(async () => {
      try {
        await deleteKeptBranch(former.id, force);
        setConfirming(null);
      } catch (failure) {
        if (!force) setConfirming(former.id);
        throw failure;
      }
    }, `Not deleted: `);

  return (
    <ModalDialog title="Kept branches" className="kept-branches" onClose={onClose}>
      <p className="field-hint">Removing an agent keeps its branch when it holds work. Attach one to a new agent, or delete it.</p>
      <ul className="kept-branches__list">
        {kept.map((former) => (
          <li key={former.id} className="kept-branches__item">
            <span className="kept-branches__branch">
              <code>{former.keptBranch}</code>
              <span className="kept-branches__from">
                {' '}
                {former.name}’s{former.parentBranch ? `, from ${former.parentBranch}` : ''}
              </span>
            </span>
            <button type="button" className="button button--ghost" disabled={pending} aria-label={`Attach ${former.keptBranch}`} onClick={() => attach(former)}>
              Attach
            </button>
            {confirming === former.id ? (
              <button type="button" className="button button--danger" disabled={pending} aria-label={`Delete with its work: ${former.keptBranch}`} onClick={() => remove(former, true)}>
                Delete with its work
              </button>
            ) : (
              <button type="button" className="button button--ghost button--ghost-danger" disabled={pending} aria-label={`Delete ${former.keptBranch}`} onClick={() => remove(former, false)}>
                Delete
              </button>
            )}
          </li>
        ))}
      </ul>
      {kept.length === 0 && <p>No branch is kept.</p>}
      <FormError message={error} />
    </ModalDialog>
  );
}
