import { pullRequestSummary, type PullRequest } from '../../shared/forge';
import { StatusIcon } from '../components/StatusIcon';
import { pullRequestTone } from './forgePresentation';

/** The agent's pull request in its pane header: how it stands; opening one is in the pane's More actions. */
export function PullRequestChip({ pullRequest, onOpen }: { pullRequest: PullRequest; onOpen(): void }) {
  const summary = pullRequestSummary(pullRequest);
  return (
    <button
      type="button"
      className="button button--ghost button--row pull-request-chip"
      data-tone={pullRequestTone(pullRequest)}
      title={pullRequest.problem ?? `${pullRequest.title} (${pullRequest.url})`}
      aria-label={`Pull request ${summary}${pullRequest.problem ? `: ${pullRequest.problem}` : ''}`}
      onClick={onOpen}
    >
      <StatusIcon tone={pullRequestTone(pullRequest)} /> {summary}
    </button>
  );
}
