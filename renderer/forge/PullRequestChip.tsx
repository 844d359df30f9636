import type { Agent } from '../../shared/entities/agents';
import type { Worktree } from '../../shared/entities/worktrees';
import { pullRequestSummary, type ForgeLink } from '../../shared/forge';
import { StatusIcon } from '../components/StatusIcon';
import { pullRequestTone } from './forgePresentation';
import { PullRequestDialog } from './PullRequestDialog';

interface PullRequestChipProps {
  agent: Agent;
  worktree: Worktree;
  link: ForgeLink | undefined;
  /** The pull request's dialog (its form, while there is none yet), opened from the chip or the pane's More actions. */
  dialogShown: boolean;
  onShowDialog(): void;
  onCloseDialog(): void;
}

/** The agent's pull request in its pane header: how it stands; opening one is in the pane's More actions. */
export function PullRequestChip({ agent, worktree, link, dialogShown, onShowDialog, onCloseDialog }: PullRequestChipProps) {
  const pullRequest = link?.pullRequest ?? null;
  const summary = pullRequest ? pullRequestSummary(pullRequest) : null;
  return (
    <>
      {pullRequest && summary && (
        <button
          type="button"
          className="button button--ghost button--row pull-request-chip"
          data-tone={pullRequestTone(pullRequest)}
          title={pullRequest.problem ?? `${pullRequest.title} (${pullRequest.url})`}
          aria-label={`Pull request ${summary}${pullRequest.problem ? `: ${pullRequest.problem}` : ''}`}
          onClick={onShowDialog}
        >
          <StatusIcon tone={pullRequestTone(pullRequest)} /> {summary}
        </button>
      )}
      {dialogShown && <PullRequestDialog agent={agent} worktree={worktree} link={link} onClose={onCloseDialog} />}
    </>
  );
}
