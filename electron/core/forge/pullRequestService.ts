import type { Agent } from '../../../shared/entities/agents';
import type { InboxMessage } from '../../../shared/entities/inbox';
import type { Worktree } from '../../../shared/entities/worktrees';
import {
  failedChecksKey,
  hasUnsentFailure,
  unsentCommentIds,
  type CheckState,
  type ForgeLink,
  type MergeMethod,
  type PullRequest,
  type PullRequestDraft,
} from '../../../shared/forge';
import { countOf } from '../../../shared/plural';
import type { AgentService } from '../agents/agentService';
import { DroverRequestError, fail } from '../errors';
import type { EventBus } from '../events/eventBus';
import { commitOf } from '../git/revisions';
import type { Git } from '../git/runner';
import type { MediatedInbox } from '../inbox/mediatedInbox';
import type { Locator } from '../locate';
import type { ProjectWork } from '../projects/projectMethods';
import type { ProjectStore } from '../storage/projectStores';
import type { WorktreeService } from '../worktrees/worktreeService';
import type { ForgeConnector, ProjectForge } from './forgeConnector';
import { saveForgeLink } from './forgeLinkAnnouncer';
import { draftPullRequestText, failedChecksMessage, reviewCommentsMessage, type BranchCommit } from './forgeText';
import { PullRequestPoller, type PollOutcome } from './pullRequestPoller';

export interface PullRequestServiceOptions {
  /** How soon an open pull request is looked at again after a change (it backs off from there). */
  pollMs: number;
  log(line: string): void;
}

type Feedback = 'failed-checks' | 'review-comments';

function checksState(checks: PullRequest['checks']): CheckState {
  if (checks.some((check) => check.state === 'failed')) return 'failed';
  if (checks.some((check) => check.state === 'pending')) return 'pending';
  return checks.some((check) => check.state === 'passed') ? 'passed' : 'none';
}

/** Whether two reads of a pull request differ in anything but when they were made. */
function differs(before: PullRequest | null, after: PullRequest): boolean {
  if (!before) return true;
  return JSON.stringify({ ...before, checkedAt: 0 }) !== JSON.stringify({ ...after, checkedAt: 0 });
}

/**
 * Each agent's pull request: drafted from its commits, opened after its branch (that branch only)
 * is pushed, followed by polling, its failed checks and review comments sent to the agent's inbox
 * (remembered as sent; automatically where the project says so), merged on the forge, and the agent
 * archived afterwards without deleting anything unmerged.
 */
export class PullRequestService implements ProjectWork {
  private readonly poller: PullRequestPoller;
  /** Feedback being sent, so an automatic send and a person's click never post it twice. */
  private readonly sending = new Set<string>();

  constructor(
    private readonly locator: Locator,
    private readonly events: EventBus,
    private readonly inbox: MediatedInbox,
    private readonly git: Git,
    private readonly worktrees: WorktreeService,
    private readonly agents: AgentService,
    private readonly connector: ForgeConnector,
    private readonly options: PullRequestServiceOptions,
  ) {
    this.poller = new PullRequestPoller((projectId, agentId) => this.look(projectId, agentId), { baseMs: options.pollMs, maxMs: options.pollMs * 15, log: options.log });
  }

  /** Stops following the pull request of an agent that goes; returns the unsubscribe. */
  listen(): () => void {
    return this.events.onEvent((event) => {
      if (event.name === 'agentChanged' && event.agent === null) this.poller.unwatch(event.agentId);
    });
  }

  /** Follows every open pull request (at start). */
  startAll(): void {
    for (const store of this.locator.registeredStores()) {
      for (const link of store.forgeLinks.list()) if (this.isOpen(link.pullRequest)) this.poller.watch(store.projectId, link.agentId);
    }
  }

  stop(): void {
    this.poller.stop();
  }

  async stopProject(projectId: string): Promise<void> {
    this.poller.unwatchProject(projectId);
  }

  projectClosed(): void {}

  /** The draft of the agent's pull request; refused first, as `create` would be, when the project has no origin to push to. */
  async draft(agentId: string): Promise<PullRequestDraft> {
    const { store, worktree } = this.requireBranch(agentId);
    await this.connector.requireOrigin(store.projectId);
    const commits = await this.commits(worktree);
    const { title, body } = draftPullRequestText(worktree.branch, commits, store.forgeLinks.get(agentId)?.issue ?? null);
    return { agentId, title, body, baseBranch: worktree.parentBranch, headBranch: worktree.branch, commits: commits.length };
  }

  /**
   * Opens the agent's pull request: checked first (committed work, none open for the branch yet),
   * then the branch is pushed, then the pull request made; a failed push makes no pull request.
   */
  async create(agentId: string, input: { title: string; body: string; draft: boolean }): Promise<ForgeLink> {
    const { store, agent, worktree } = this.requireBranch(agentId);
    const known = store.forgeLinks.get(agentId)?.pullRequest;
    if (known && this.isOpen(known)) fail('conflict', `${agent.name} already has pull request #${known.number}: ${known.url}`);
    await this.connector.requireOrigin(store.projectId);
    const connected = await this.connector.connect(store.projectId);
    const status = await this.worktrees.status(agentId);
    if (status.uncommittedFiles > 0) {
      fail('invalid-state', `${countOf(status.uncommittedFiles, 'file')} in ${agent.name}'s worktree ${status.uncommittedFiles === 1 ? 'is' : 'are'} not committed, and a pull request takes commits only. Commit them first (or ask ${agent.name} to).`);
    }
    if (status.ahead === 0) fail('invalid-state', `${worktree.branch} has no commits that ${worktree.parentBranch} lacks: there is nothing to open a pull request for.`);
    const existing = await connected.forge.openPullRequestFor(`${connected.headOwner}:${worktree.branch}`);
    if (existing) fail('conflict', `A pull request already exists for ${worktree.branch}: #${existing.number} (${existing.url}).`);
    await this.worktrees.push(agentId, 'origin');
    const [owner] = connected.repository.split('/');
    const head = connected.headOwner === owner ? worktree.branch : `${connected.headOwner}:${worktree.branch}`;
    const number = await connected.forge.createPullRequest({ head, base: worktree.parentBranch, ...input });
    const link = await this.read(store, agentId, connected, number);
    this.poller.watch(store.projectId, agentId);
    return link;
  }

  /** Reads the agent's pull request now (and looks again soon after). */
  async refresh(agentId: string): Promise<ForgeLink> {
    const { store, agent } = this.locator.agent(agentId);
    const number = this.requirePullRequest(store, agent).number;
    const link = await this.read(store, agentId, await this.connector.connect(store.projectId), number);
    if (this.isOpen(link.pullRequest)) this.poller.watch(store.projectId, agentId);
    return link;
  }

  /** Posts the failed checks or the unsent review comments to the agent's inbox, and remembers them as sent. */
  async send(agentId: string, what: Feedback): Promise<InboxMessage> {
    const key = `${agentId}:${what}`;
    if (this.sending.has(key)) fail('conflict', 'That is being sent to the agent already.');
    this.sending.add(key);
    try {
      const { store, agent } = this.locator.agent(agentId);
      const pullRequest = this.requirePullRequest(store, agent);
      const connected = await this.connector.connect(store.projectId);
      return what === 'failed-checks' ? await this.sendFailedChecks(store, agent, pullRequest, connected) : await this.sendReviewComments(store, agent, pullRequest, connected);
    } finally {
      this.sending.delete(key);
    }
  }

  /** Merges on the forge once nothing local or remote stands in the way; each obstacle is its own message. */
  async merge(agentId: string, method: MergeMethod): Promise<ForgeLink> {
    const { store, agent } = this.locator.agent(agentId);
    const known = this.requirePullRequest(store, agent);
    const connected = await this.connector.connect(store.projectId);
    const pullRequest = (await this.read(store, agentId, connected, known.number)).pullRequest as PullRequest;
    const name = `#${pullRequest.number}`;
    if (pullRequest.state === 'merged') fail('invalid-state', `${name} is merged already.`);
    if (pullRequest.state === 'closed') fail('invalid-state', `${name} was closed without merging; reopen it on GitHub first.`);
    if (pullRequest.state === 'draft') fail('invalid-state', `${name} is a draft: mark it ready for review on GitHub first.`);
    if (!pullRequest.mergeMethods.includes(method)) fail('invalid-state', `${connected.repository} does not allow ${method} merges; it allows ${pullRequest.mergeMethods.join(', ') || 'none'}.`);
    const worktree = store.worktrees.get(agentId);
    const checkout = worktree ? await this.worktrees.checkout(worktree) : null;
    const tip = worktree && checkout ? await commitOf(this.git, checkout, `refs/heads/${worktree.branch}`) : null;
    if (tip && checkout && tip !== pullRequest.headSha) {
      const pushedIsOlder = (await this.git.run(checkout, ['merge-base', '--is-ancestor', pullRequest.headSha, tip], { okCodes: [0, 1, 128] })).code === 0;
      fail(
        'invalid-state',
        pushedIsOlder
          ? `${pullRequest.headBranch} has commits that are not pushed, so ${name} would merge without them. Push the branch first.`
          : `${name}'s branch on GitHub has commits that ${agent.name}'s worktree lacks (pushed from elsewhere). Pull them into the worktree, or merge on GitHub.`,
      );
    }
    if (pullRequest.mergeability === 'conflicts') fail('conflict', `${name} conflicts with ${pullRequest.baseBranch}: rebase ${pullRequest.headBranch} on ${pullRequest.baseBranch}, resolve the conflicts and push.`);
    if (pullRequest.mergeability === 'behind') fail('invalid-state', this.behindMessage(pullRequest));
    try {
      await connected.forge.merge(pullRequest.number, method, pullRequest.headSha);
    } catch (error) {
      throw this.explainRefusedMerge(error, pullRequest);
    }
    const merged = await this.read(store, agentId, connected, pullRequest.number);
    this.poller.unwatch(agentId);
    return merged;
  }

  /**
   * After the merge: the agent and its worktree go. Its branch goes only when it still is exactly
   * what the forge merged; anything committed since (or left uncommitted, which is committed onto
   * it first) keeps it.
   */
  async archive(agentId: string): Promise<{ agentId: string; deletedBranch: string | null; keptBranch: string | null }> {
    const { store, agent } = this.locator.agent(agentId);
    const pullRequest = this.requirePullRequest(store, agent);
    if (pullRequest.state !== 'merged') {
      fail('invalid-state', `#${pullRequest.number} has not merged (it is ${pullRequest.state}): archiving is for merged work. Use Remove agent to remove ${agent.name} anyway; its branch is kept.`);
    }
    const worktree = store.worktrees.get(agentId);
    const keptBranch = await this.agents.remove(agentId, { mergedUpstream: pullRequest.headSha });
    const deletedBranch = worktree?.ownsBranch && keptBranch === null ? worktree.branch : null;
    return { agentId, deletedBranch, keptBranch };
  }

  private async sendFailedChecks(store: ProjectStore, agent: Agent, pullRequest: PullRequest, connected: ProjectForge): Promise<InboxMessage> {
    const key = failedChecksKey(pullRequest);
    if (!key) fail('invalid-state', `No checks of #${pullRequest.number} failed (they are ${pullRequest.checksState}): there is nothing to send.`);
    const failed = pullRequest.checks.filter((check) => check.state === 'failed');
    const details = new Map<string, string>();
    await Promise.all(
      failed.map(async (check) => {
        try {
          details.set(check.id, await connected.forge.failureDetails(check));
        } catch (error) {
          details.set(check.id, `(Drover could not read what GitHub says about it: ${error instanceof Error ? error.message : String(error)})`);
        }
      }),
    );
    const message = this.inbox.post(store.projectId, { agentId: agent.id, kind: 'note', body: failedChecksMessage(pullRequest, details) });
    saveForgeLink(this.events, store, agent.id, { checksSentFor: key });
    return message;
  }

  private async sendReviewComments(store: ProjectStore, agent: Agent, pullRequest: PullRequest, connected: ProjectForge): Promise<InboxMessage> {
    const sent = new Set(store.forgeLinks.get(agent.id)?.sentCommentIds ?? []);
    const comments = await connected.forge.reviewComments(pullRequest.number);
    const threadOf = (comment: { id: number; inReplyTo: number | null }) => comment.inReplyTo ?? comment.id;
    const open = new Set(comments.filter((comment) => !sent.has(comment.id)).map(threadOf));
    if (open.size === 0) fail('invalid-state', `#${pullRequest.number} has no review comments that ${agent.name} was not sent already.`);
    const chosen = comments.filter((comment) => open.has(threadOf(comment)));
    const message = this.inbox.post(store.projectId, { agentId: agent.id, kind: 'note', body: reviewCommentsMessage(pullRequest, chosen) });
    saveForgeLink(this.events, store, agent.id, { sentCommentIds: [...sent, ...chosen.map((comment) => comment.id)] });
    return message;
  }

  /** One poll: reads the pull request, sends what the project sends automatically, and says what came of it. */
  private async look(projectId: string, agentId: string): Promise<PollOutcome> {
    const { store } = this.locator.agent(agentId);
    const before = store.forgeLinks.get(agentId)?.pullRequest ?? null;
    if (!before || !this.isOpen(before)) return { kind: 'done' };
    let after: ForgeLink;
    try {
      after = await this.read(store, agentId, await this.connector.connect(projectId), before.number);
    } catch (error) {
      if (!(error instanceof DroverRequestError)) throw error;
      const rate = (await this.connector.connect(projectId).catch(() => null))?.forge.rateLimit();
      return { kind: 'failed', retryAt: rate && rate.remaining === 0 ? rate.resetsAt : null };
    }
    await this.sendAutomatically(store, after);
    if (!this.isOpen(after.pullRequest)) return { kind: 'done' };
    return after.pullRequest !== null && differs(before, after.pullRequest) ? { kind: 'changed' } : { kind: 'same' };
  }

  private async sendAutomatically(store: ProjectStore, link: ForgeLink): Promise<void> {
    const settings = store.settings.get();
    const due: Feedback[] = [
      ...(settings.autoSendFailedChecks && hasUnsentFailure(link) ? (['failed-checks'] as const) : []),
      ...(settings.autoSendReviewComments && unsentCommentIds(link).length > 0 ? (['review-comments'] as const) : []),
    ];
    for (const what of due) {
      await this.send(link.agentId, what).catch((error: unknown) => this.options.log(`could not send the ${what} of ${link.agentId}: ${error instanceof Error ? error.message : String(error)}`));
    }
  }

  /**
   * Reads the pull request with its checks, reviews and comments, and stores what changed. A read
   * that fails is stored as the pull request's problem (what the pane shows), then rethrown.
   */
  private async read(store: ProjectStore, agentId: string, connected: ProjectForge, number: number): Promise<ForgeLink> {
    const previous = store.forgeLinks.get(agentId)?.pullRequest ?? null;
    let pullRequest: PullRequest;
    try {
      const { forge } = connected;
      const found = await forge.pullRequest(number);
      const [checks, reviewDecision, comments, repository] = await Promise.all([forge.checks(found.headSha), forge.reviewDecision(number), forge.reviewComments(number), forge.repository()]);
      pullRequest = {
        ...found,
        checks,
        checksState: checksState(checks),
        reviewDecision,
        reviewCommentIds: comments.map((comment) => comment.id),
        mergeMethods: repository.mergeMethods,
        checkedAt: Date.now(),
        problem: null,
      };
    } catch (error) {
      if (error instanceof DroverRequestError && previous && previous.problem !== error.message) {
        saveForgeLink(this.events, store, agentId, { pullRequest: { ...previous, problem: error.message, checkedAt: Date.now() } });
      }
      if (error instanceof DroverRequestError && /refused the token/.test(error.message)) this.connector.tokenRefused(connected.apiUrl);
      throw error;
    }
    const link = store.forgeLinks.get(agentId);
    if (link && !differs(previous, pullRequest)) return link;
    return saveForgeLink(this.events, store, agentId, { pullRequest });
  }

  private async commits(worktree: Worktree): Promise<BranchCommit[]> {
    const log = await this.git.run(await this.worktrees.checkout(worktree), ['log', '--reverse', '--format=%s%x1f%b%x1e', `refs/heads/${worktree.parentBranch}..refs/heads/${worktree.branch}`]);
    return log.stdout
      .split('\x1e')
      .map((entry) => entry.replace(/^\n/, ''))
      .filter((entry) => entry.length > 0)
      .map((entry) => {
        const [subject = '', body = ''] = entry.split('\x1f');
        return { subject: subject.trim(), body: body.trim() };
      });
  }

  private behindMessage(pullRequest: PullRequest): string {
    return `#${pullRequest.number}'s branch is behind ${pullRequest.baseBranch}, and the repository requires branches to be up to date before they merge: rebase ${pullRequest.headBranch} on ${pullRequest.baseBranch} (or merge ${pullRequest.baseBranch} into it), push, and merge again.`;
  }

  /** GitHub's refusals in words that say what to do. */
  private explainRefusedMerge(error: unknown, pullRequest: PullRequest): unknown {
    if (!(error instanceof DroverRequestError) || error.code !== 'conflict') return error;
    if (/out of date|behind/i.test(error.message)) return new DroverRequestError('invalid-state', this.behindMessage(pullRequest));
    if (/head branch was modified/i.test(error.message)) {
      return new DroverRequestError('conflict', `#${pullRequest.number}'s branch changed on GitHub since Drover last looked; nothing was merged. Look at it again, then merge.`);
    }
    return new DroverRequestError('invalid-state', `GitHub's branch protection refused to merge #${pullRequest.number}: ${error.message.replace(/^GitHub refused to merge the pull request: /, '')}`);
  }

  private requireBranch(agentId: string): { store: ProjectStore; agent: Agent; worktree: Worktree } {
    const { store, agent } = this.locator.agent(agentId);
    const worktree = store.worktrees.get(agentId);
    if (!worktree) fail('invalid-state', `${agent.name} works in the project folder: a pull request needs an agent on a branch of its own (its own worktree).`);
    if (worktree.state !== 'ready') fail('invalid-state', `${agent.name}'s worktree is ${worktree.state === 'creating' ? 'still being made' : 'gone'}.`);
    return { store, agent, worktree };
  }

  private requirePullRequest(store: ProjectStore, agent: Agent): PullRequest {
    const pullRequest = store.forgeLinks.get(agent.id)?.pullRequest;
    if (!pullRequest) fail('invalid-state', `${agent.name} has no pull request yet: open one first.`);
    return pullRequest;
  }

  private isOpen(pullRequest: PullRequest | null | undefined): boolean {
    return pullRequest?.state === 'open' || pullRequest?.state === 'draft';
  }
}
