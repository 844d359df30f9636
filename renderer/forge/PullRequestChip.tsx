import { useState } from 'react';
import type { Agent, Worktree } from '../../shared/entities';
import { pullRequestSummary, type ForgeLink } from '../../shared/forge';
import { StatusIcon } from '../components/StatusIcon';
import { pullRequestTone } from './forgePresentation';
import { PullRequestDialog } from './PullRequestDialog';

/** The agent's pull request in its pane header: how it stands, or the way to open one. */
export function PullRequestChip({ agent, worktree, link }: { agent: Agent; worktree: Worktree; link: ForgeLink | undefined }) {
  const [open, setOpen] = useState(false);
  const pullRequest = link?.pullRequest ?? null;
  const summary = pullRequest ? pullRequestSummary(pullRequest) : null;
  return (
    <>
      {pullRequest && summary ? (
        <button
          type="button"
          className="button button--ghost button--row pull-request-chip"
          data-tone={pullRequestTone(pullRequest)}
          title={pullRequest.problem ?? `${pullRequest.title} (${pullRequest.url})`}
          aria-label={`Pull request ${summary}${pullRequest.problem ? `: ${pullRequest.problem}` : ''}`}
          onClick={() => setOpen(true)}
        >
          <StatusIcon tone={pullRequestTone(pullRequest)} /> {summary}
        </button>
      ) : (
        <button type="button" className="button button--ghost button--row pull-request-chip" disabled={worktree.state !== 'ready'} onClick={() => setOpen(true)}>
          Open pull request
        </button>
      )}
      {open && <PullRequestDialog agent={agent} worktree={worktree} link={link} onClose={() => setOpen(false)} />}
    </>
  );
}
