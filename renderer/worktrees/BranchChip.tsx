import type { Worktree } from '../../shared/entities/worktrees';

const STATE_NOTE: Readonly<Record<Worktree['state'], string | null>> = {
  creating: 'making its worktree…',
  ready: null,
  missing: 'worktree folder gone',
};

/** The branch an agent works on in its own worktree, and the way to its changes (pane header). */
export function BranchChip({ agentName, worktree, onReview }: { agentName: string; worktree: Worktree; onReview(): void }) {
  const note = STATE_NOTE[worktree.state];
  return (
    <span className="branch-chip">
      <span aria-hidden="true" className="branch-chip__icon">
        ⎇
      </span>
      <span className="branch-chip__name" title={`${agentName} works on ${worktree.branch} (from ${worktree.parentBranch}) in ${worktree.path}`}>
        {worktree.branch}
      </span>
      {note && <span className="branch-chip__note">{note}</span>}
      <button
        type="button"
        className="button button--ghost button--row"
        title={`Review ${agentName}'s changes and merge them into ${worktree.parentBranch} (Ctrl+Shift+G)`}
        disabled={worktree.state !== 'ready'}
        onClick={onReview}
      >
        Changes
      </button>
    </span>
  );
}
