import { z } from 'zod';

/**
 * The forge a project's repository lives on (GitHub, GitHub Enterprise Server): its pull requests,
 * checks, review comments and issues, as Drover follows them for an agent.
 */

const Timestamp = z.number().int().nonnegative();
const AgentId = z.string().regex(/^a-[a-z0-9]{6,32}$/, 'not an agent id');
const ProjectId = z.string().regex(/^p-[a-z0-9]{6,32}$/, 'not a project id');

/** `owner/name`, as GitHub spells a repository. */
export const RepositoryNameSchema = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9_.-]{1,100}\/[A-Za-z0-9_.-]{1,100}$/, 'a repository is owner/name, e.g. octo-org/octo-repo');

/** Where the forge's REST API answers: https, or http on this machine (a local test server). */
export const ForgeApiUrlSchema = z
  .string()
  .trim()
  .max(2000)
  .refine((text) => {
    try {
      const url = new URL(text);
      const loopback = ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname);
      return (url.protocol === 'https:' || (url.protocol === 'http:' && loopback)) && !url.username && !url.password && !url.search && !url.hash;
    } catch {
      return false;
    }
  }, 'the API URL must be an https:// address without a user, query or fragment (e.g. https://github.example.com/api/v3)');

export const CHECK_STATES = ['none', 'pending', 'passed', 'failed'] as const;
export type CheckState = (typeof CHECK_STATES)[number];

/** One check run or commit status of the pull request's head commit. */
export const CheckSchema = z.object({
  /** `run:<id>` for a check run, `status:<context>` for a commit status. */
  id: z.string(),
  name: z.string(),
  state: z.enum(['pending', 'passed', 'failed', 'skipped']),
  /** What the forge says in a word: failure, timed_out, success, error, … */
  conclusion: z.string().nullable(),
  /** The forge's one-line account of it (a check run's output title and summary, a status's description). */
  summary: z.string().nullable(),
  url: z.string().nullable(),
});
export type Check = z.infer<typeof CheckSchema>;

export const PULL_REQUEST_STATES = ['draft', 'open', 'merged', 'closed'] as const;
export type PullRequestState = (typeof PULL_REQUEST_STATES)[number];
export const REVIEW_DECISIONS = ['none', 'approved', 'changes-requested'] as const;
/** Whether the forge would merge it now, and why not. */
export const MERGEABILITY = ['unknown', 'mergeable', 'conflicts', 'behind', 'blocked', 'checks-failing', 'draft'] as const;
export type Mergeability = (typeof MERGEABILITY)[number];
export const MERGE_METHODS = ['merge', 'squash', 'rebase'] as const;
export const MergeMethodSchema = z.enum(MERGE_METHODS);
export type MergeMethod = z.infer<typeof MergeMethodSchema>;

export const PullRequestSchema = z.object({
  number: z.number().int().positive(),
  url: z.string(),
  title: z.string(),
  state: z.enum(PULL_REQUEST_STATES),
  baseBranch: z.string(),
  headBranch: z.string(),
  /** The commit the forge has for the branch: what its checks ran on. */
  headSha: z.string(),
  checks: z.array(CheckSchema),
  /** All checks together: failed if any failed, pending while any runs, passed once all passed. */
  checksState: z.enum(CHECK_STATES),
  reviewDecision: z.enum(REVIEW_DECISIONS),
  mergeability: z.enum(MERGEABILITY),
  /** Ids of the review comments that start a thread (replies belong to them). */
  reviewCommentIds: z.array(z.number().int()),
  /** The merge methods the repository allows. */
  mergeMethods: z.array(MergeMethodSchema),
  mergedAt: Timestamp.nullable(),
  /** When Drover last read it from the forge. */
  checkedAt: Timestamp,
  /** Why the last look failed (an expired token, the API down, the rate limit); null when it worked. */
  problem: z.string().nullable(),
});
export type PullRequest = z.infer<typeof PullRequestSchema>;

export const ForgeIssueRefSchema = z.object({ number: z.number().int().positive(), title: z.string(), url: z.string() });
export type ForgeIssueRef = z.infer<typeof ForgeIssueRefSchema>;

/**
 * What ties an agent to the forge: the issue it was started on, its pull request as last read, and
 * what of it was already sent to the agent.
 */
export const ForgeLinkSchema = z.object({
  agentId: AgentId,
  projectId: ProjectId,
  issue: ForgeIssueRefSchema.nullable(),
  pullRequest: PullRequestSchema.nullable(),
  /** The failure (`failedChecksKey`) last sent to the agent. */
  checksSentFor: z.string().nullable(),
  sentCommentIds: z.array(z.number().int()),
  seq: z.number().int().nonnegative(),
});
export type ForgeLink = z.infer<typeof ForgeLinkSchema>;

/** One occurrence of failed checks: the head commit and which checks failed on it. */
export function failedChecksKey(pullRequest: PullRequest): string | null {
  if (pullRequest.checksState !== 'failed') return null;
  const failed = pullRequest.checks.filter((check) => check.state === 'failed').map((check) => check.id);
  return `${pullRequest.headSha}:${failed.sort().join(',')}`;
}

/** Review comments the agent has not been sent yet. */
export function unsentCommentIds(link: ForgeLink): number[] {
  const sent = new Set(link.sentCommentIds);
  return (link.pullRequest?.reviewCommentIds ?? []).filter((id) => !sent.has(id));
}

/** Failed checks of an open pull request that the agent has not been sent. */
export function hasUnsentFailure(link: ForgeLink): boolean {
  const pullRequest = link.pullRequest;
  if (!pullRequest || pullRequest.state === 'merged' || pullRequest.state === 'closed') return false;
  const key = failedChecksKey(pullRequest);
  return key !== null && key !== link.checksSentFor;
}

export const RateLimitSchema = z.object({
  limit: z.number().int().nonnegative(),
  remaining: z.number().int().nonnegative(),
  resetsAt: Timestamp,
});
export type RateLimit = z.infer<typeof RateLimitSchema>;

/** Whether the rate limit left is worth showing: a tenth or less of it is left. */
export function rateLimitLow(rate: RateLimit | null): boolean {
  return rate !== null && rate.remaining <= Math.max(10, rate.limit / 10);
}

export const TOKEN_SOURCES = ['gh-cli', 'environment', 'stored'] as const;

/** A project's forge as Drover sees it: where it is, who Drover is there, how much API is left. */
export const ForgeStatusSchema = z.object({
  projectId: ProjectId,
  /** Null when the project's repository is not on a forge Drover knows (see `problem`). */
  repository: z.string().nullable(),
  apiUrl: z.string().nullable(),
  /** What `origin` says, before the project's settings and DROVER_GITHUB_API_URL. */
  detected: z.object({ repository: z.string().nullable(), apiUrl: z.string().nullable(), remoteUrl: z.string().nullable() }),
  /** Why Drover cannot talk to the forge for this project; null when it can. */
  problem: z.string().nullable(),
  auth: z.object({
    source: z.enum(TOKEN_SOURCES).nullable(),
    login: z.string().nullable(),
    /** The token's OAuth scopes (classic tokens report them; fine-grained tokens do not). */
    scopes: z.array(z.string()).nullable(),
    problem: z.string().nullable(),
  }),
  /** Where a pasted token is kept, in a person's words. */
  tokenStorage: z.string(),
  rateLimit: RateLimitSchema.nullable(),
});
export type ForgeStatus = z.infer<typeof ForgeStatusSchema>;

export const ForgeIssueSchema = z.object({
  number: z.number().int().positive(),
  title: z.string(),
  url: z.string(),
  author: z.string().nullable(),
  labels: z.array(z.string()),
  assignees: z.array(z.string()),
  createdAt: Timestamp,
  /** The agent already started on it, if any. */
  agentId: AgentId.nullable(),
});
export type ForgeIssue = z.infer<typeof ForgeIssueSchema>;

export const PullRequestDraftSchema = z.object({
  agentId: AgentId,
  title: z.string(),
  body: z.string(),
  baseBranch: z.string(),
  headBranch: z.string(),
  commits: z.number().int().nonnegative(),
});
export type PullRequestDraft = z.infer<typeof PullRequestDraftSchema>;

const STATE_WORDS: Readonly<Record<PullRequestState, string>> = { draft: 'draft', open: 'open', merged: 'merged', closed: 'closed' };
const CHECK_WORDS: Readonly<Record<CheckState, string | null>> = { none: null, pending: 'checks running', passed: 'checks passed', failed: 'checks failed' };
const REVIEW_WORDS: Readonly<Record<(typeof REVIEW_DECISIONS)[number], string | null>> = { none: null, approved: 'approved', 'changes-requested': 'changes requested' };
const MERGE_WORDS: Readonly<Record<Mergeability, string | null>> = {
  unknown: null,
  mergeable: null,
  'checks-failing': null,
  draft: null,
  conflicts: 'conflicts',
  behind: 'behind its base',
  blocked: 'blocked',
};

/** "#7 open · checks failed · changes requested": the pull request in a line (pane header, CLI). */
export function pullRequestSummary(pullRequest: PullRequest): string {
  const open = pullRequest.state === 'open' || pullRequest.state === 'draft';
  const parts = [
    `#${pullRequest.number} ${STATE_WORDS[pullRequest.state]}`,
    ...(open ? [CHECK_WORDS[pullRequest.checksState], REVIEW_WORDS[pullRequest.reviewDecision], MERGE_WORDS[pullRequest.mergeability]] : []),
  ];
  return parts.filter((part): part is string => part !== null).join(' · ');
}
