import { useEffect, useId, useState, type FormEvent } from 'react';
import type { Agent } from '../../shared/entities/agents';
import type { Worktree } from '../../shared/entities/worktrees';
import { hasUnsentFailure, pullRequestSummary, unsentCommentIds, type ForgeLink, type MergeMethod, type PullRequest, type PullRequestDraft, type RateLimit } from '../../shared/forge';
import { countOf } from '../../shared/plural';
import { Field } from '../components/Field';
import { FormError } from '../components/FormError';
import { ModalDialog } from '../components/ModalDialog';
import { StatusBadge } from '../components/StatusBadge';
import { useNow } from '../components/useNow';
import { usePendingAction } from '../components/usePendingAction';
import { errorMessage } from '../format/errorMessage';
import { useBridge, useDroverActions } from '../store/StoreContext';
import { checkStatus, rateLimitNote } from './forgePresentation';

interface PullRequestDialogProps {
  agent: Agent;
  worktree: Worktree;
  link: ForgeLink | undefined;
  onClose(): void;
}

const METHOD_LABELS: Readonly<Record<MergeMethod, string>> = { merge: 'Merge commit', squash: 'Squash and merge', rebase: 'Rebase and merge' };

/** The agent's pull request: opened from a draft of its commits, then followed, fed back to the agent, merged, archived. */
export function PullRequestDialog({ agent, worktree, link, onClose }: PullRequestDialogProps) {
  const pullRequest = link?.pullRequest ?? null;
  return (
    <ModalDialog title={pullRequest ? `Pull request #${pullRequest.number}` : `Open a pull request for ${agent.name}`} className="pull-request-dialog" onClose={onClose}>
      {pullRequest && link ? <PullRequestView agent={agent} link={link} pullRequest={pullRequest} /> : <OpenPullRequest agent={agent} worktree={worktree} />}
    </ModalDialog>
  );
}

/**
 * Drafts the pull request first, which the host refuses when one cannot be opened (no origin to push
 * to, no forge, no token): the person reads what to do before filling anything in.
 */
function OpenPullRequest({ agent, worktree }: { agent: Agent; worktree: Worktree }) {
  const bridge = useBridge();
  const [draft, setDraft] = useState<PullRequestDraft | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const agentId = agent.id;

  useEffect(() => {
    let current = true;
    bridge.call('draftPullRequest', { agentId }).then(
      (answer) => current && setDraft(answer),
      (failure: unknown) => current && setLoadError(errorMessage(failure)),
    );
    return () => {
      current = false;
    };
  }, [bridge, agentId]);

  if (loadError) return <FormError message={`Drover cannot open a pull request yet. ${loadError}`} />;
  if (!draft) return <p role="status">Checking that a pull request can be opened…</p>;
  return <OpenPullRequestForm agentId={agentId} worktree={worktree} drafted={draft} />;
}

function OpenPullRequestForm({ agentId, worktree, drafted }: { agentId: string; worktree: Worktree; drafted: PullRequestDraft }) {
  const { createPullRequest } = useDroverActions();
  const [title, setTitle] = useState(drafted.title);
  const [body, setBody] = useState(drafted.body);
  const [asDraft, setAsDraft] = useState(false);
  const opening = usePendingAction({ clearErrorOnStart: true });

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!title.trim()) {
      opening.setError('Give the pull request a title.');
      return;
    }
    void opening.run(() => createPullRequest({ agentId, title: title.trim(), body, draft: asDraft }), 'Could not open the pull request: ');
  };

  return (
    <form className="form-grid" noValidate onSubmit={submit}>
      <p>
        From <code>{worktree.branch}</code> into <code>{worktree.parentBranch}</code>, {countOf(drafted.commits, 'commit')}. Drover pushes this branch (and no other) to origin
        first, drafted from its commits; edit what you like.
      </p>
      <Field label="Title">{() => <input className="text-input" value={title} onChange={(event) => setTitle(event.target.value)} />}</Field>
      <Field label="Description">{() => <textarea className="text-input text-area" rows={8} value={body} onChange={(event) => setBody(event.target.value)} />}</Field>
      <label className="workspace-fields__choice">
        <input type="checkbox" checked={asDraft} onChange={(event) => setAsDraft(event.target.checked)} />
        <span>Open as a draft</span>
      </label>
      <FormError message={opening.error} />
      <div className="dialog__actions">
        <button type="submit" className="button button--primary" disabled={opening.pending}>
          {opening.pending ? 'Pushing and opening…' : 'Open pull request'}
        </button>
      </div>
    </form>
  );
}

function PullRequestView({ agent, link, pullRequest }: { agent: Agent; link: ForgeLink; pullRequest: PullRequest }) {
  const bridge = useBridge();
  const { refreshPullRequest, sendForgeFeedback, mergePullRequest, archiveAgent } = useDroverActions();
  const action = usePendingAction();
  const [outcome, setOutcome] = useState<string | null>(null);
  const [method, setMethod] = useState<MergeMethod | null>(null);
  const [rate, setRate] = useState<RateLimit | null>(null);
  const methodId = useId();
  const agentId = agent.id;
  const projectId = agent.projectId;
  const open = pullRequest.state === 'open' || pullRequest.state === 'draft';
  const chosen = method && pullRequest.mergeMethods.includes(method) ? method : (pullRequest.mergeMethods[0] ?? 'merge');
  const unsent = unsentCommentIds(link).length;

  useEffect(() => {
    let current = true;
    bridge.call('getForgeStatus', { projectId }).then(
      (status) => current && setRate(status.rateLimit),
      () => {},
    );
    return () => {
      current = false;
    };
  }, [bridge, projectId, pullRequest.checkedAt]);

  const act = (work: () => Promise<string>, prefix: string) =>
    void action.run(async () => {
      setOutcome(await work());
    }, prefix);
  const now = useNow(false);
  const note = rateLimitNote(rate, now);

  return (
    <div className="pull-request-view">
      <p>
        <a href={pullRequest.url} target="_blank" rel="noreferrer">
          {pullRequest.title}
        </a>{' '}
        — {pullRequestSummary(pullRequest)}. <code>{pullRequest.headBranch}</code> into <code>{pullRequest.baseBranch}</code> at <code>{pullRequest.headSha.slice(0, 10)}</code>.
      </p>
      {pullRequest.problem && <p role="alert">{pullRequest.problem}</p>}
      {note && <p className="field-warning">{note}</p>}
      {pullRequest.checks.length === 0 ? (
        <p>No checks on this commit.</p>
      ) : (
        <ul className="pull-request-view__checks" aria-label="Checks">
          {pullRequest.checks.map((check) => (
            <li key={check.id} aria-label={`${check.name}: ${checkStatus(check).label}`}>
              <StatusBadge status={checkStatus(check)} /> <span className="pull-request-view__check-name">{check.name}</span>
              {check.summary && <span className="field-hint"> — {check.summary}</span>}
            </li>
          ))}
        </ul>
      )}
      <p>
        Review: {pullRequest.reviewDecision === 'none' ? 'no decision yet' : pullRequest.reviewDecision.replace('-', ' ')}; {countOf(pullRequest.reviewCommentIds.length, 'review comment')}
        {unsent > 0 && ` (${unsent} not sent to ${agent.name})`}.
      </p>
      {outcome && (
        <p role="status" className="merge-dialog__outcome">
          {outcome}
        </p>
      )}
      <FormError message={action.error} />
      <div className="dialog__actions dialog__actions--wrap">
        <button type="button" className="button" disabled={action.pending} onClick={() => act(async () => `Looked at #${pullRequest.number} again: ${pullRequestSummary((await refreshPullRequest(agentId)).pullRequest as PullRequest)}.`, 'Could not look: ')}>
          Refresh
        </button>
        {open && (
          <button
            type="button"
            className="button"
            disabled={action.pending}
            onClick={() =>
              act(async () => {
                const pushed = await bridge.call('pushWorktreeBranch', { agentId, remote: 'origin' });
                await refreshPullRequest(agentId);
                return `Pushed ${pushed.branch} to ${pushed.remote}.`;
              }, 'Could not push: ')
            }
          >
            Push branch
          </button>
        )}
        {hasUnsentFailure(link) && (
          <button type="button" className="button button--primary" disabled={action.pending} onClick={() => act(async () => {
                await sendForgeFeedback(agentId, 'failed-checks');
                return `Sent the failed checks to ${agent.name}'s inbox; it is woken with them when it is ready.`;
              }, 'Could not send them: ')}>
            Send failed checks to {agent.name}
          </button>
        )}
        {open && unsent > 0 && (
          <button type="button" className="button button--primary" disabled={action.pending} onClick={() => act(async () => {
                await sendForgeFeedback(agentId, 'review-comments');
                return `Sent ${countOf(unsent, 'review comment')} to ${agent.name}'s inbox.`;
              }, 'Could not send them: ')}>
            Send review comments to {agent.name}
          </button>
        )}
      </div>
      {open && (
        <div className="pull-request-view__merge">
          <label htmlFor={methodId} className="field-label">
            Merge method
          </label>
          <select id={methodId} className="text-input" value={chosen} onChange={(event) => setMethod(event.target.value as MergeMethod)}>
            {pullRequest.mergeMethods.map((option) => (
              <option key={option} value={option}>
                {METHOD_LABELS[option]}
              </option>
            ))}
          </select>
          <button
            type="button"
            className="button button--primary"
            disabled={action.pending || pullRequest.state === 'draft'}
            title={pullRequest.state === 'draft' ? 'A draft merges once it is marked ready for review on GitHub.' : undefined}
            onClick={() => act(async () => {
                await mergePullRequest(agentId, chosen);
                return `Merged #${pullRequest.number} into ${pullRequest.baseBranch}.`;
              }, 'Could not merge: ')}
          >
            Merge pull request
          </button>
        </div>
      )}
      {pullRequest.state === 'merged' && (
        <div className="pull-request-view__archive">
          <p>
            #{pullRequest.number} is merged. Archiving {agent.name} stops it and removes its worktree; its branch {pullRequest.headBranch} is deleted too, as GitHub merged
            it — unless it holds anything more (new commits or uncommitted files), which keeps it. Nothing unmerged is deleted.
          </p>
          <button type="button" className="button button--primary" disabled={action.pending} onClick={() => act(async () => describeArchive(await archiveAgent(agentId)), 'Could not archive: ')}>
            Archive {agent.name}
          </button>
        </div>
      )}
    </div>
  );
}

function describeArchive(archived: { deletedBranch: string | null; keptBranch: string | null }): string {
  if (archived.keptBranch) return `Archived; its branch ${archived.keptBranch} is kept, as it holds work GitHub did not merge.`;
  return archived.deletedBranch ? `Archived; its merged branch ${archived.deletedBranch} is deleted.` : 'Archived.';
}
