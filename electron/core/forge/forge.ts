import type { Check, ForgeIssue, MergeMethod, Mergeability, PullRequestState, RateLimit } from '../../../shared/forge';

/**
 * What Drover asks of a forge about one repository, in its own words (GitHub now; GitLab could
 * answer the same). Every call fails with a DroverRequestError a person can act on.
 */
export interface Forge {
  readonly apiUrl: string;
  /** Who the token belongs to, and its OAuth scopes where the forge reports them. */
  viewer(): Promise<{ login: string; scopes: string[] | null }>;
  repository(): Promise<{ mergeMethods: MergeMethod[] }>;
  /** The open pull request whose head is `branch` (of `headOwner`'s fork, or this repository). */
  openPullRequestFor(head: string): Promise<{ number: number; url: string } | null>;
  createPullRequest(input: { head: string; base: string; title: string; body: string; draft: boolean }): Promise<number>;
  pullRequest(number: number): Promise<ForgePullRequest>;
  /** The check runs and commit statuses of a commit. */
  checks(sha: string): Promise<Check[]>;
  reviewDecision(number: number): Promise<'none' | 'approved' | 'changes-requested'>;
  reviewComments(number: number): Promise<ReviewComment[]>;
  /** What the forge says about a failed check: its summary and annotations, or the tail of its job's log. */
  failureDetails(check: Check): Promise<string>;
  merge(number: number, method: MergeMethod, headSha: string): Promise<void>;
  issues(query: IssueQuery): Promise<Omit<ForgeIssue, 'agentId'>[]>;
  issue(number: number): Promise<{ number: number; title: string; url: string; body: string }>;
  labels(): Promise<string[]>;
  /** The rate limit as the last answer reported it. */
  rateLimit(): RateLimit | null;
}

export interface ForgePullRequest {
  number: number;
  url: string;
  title: string;
  state: PullRequestState;
  baseBranch: string;
  headBranch: string;
  headSha: string;
  mergeability: Mergeability;
  mergedAt: number | null;
}

export interface ReviewComment {
  id: number;
  path: string;
  line: number | null;
  /** The diff around the line, as the forge quotes it. */
  diffHunk: string;
  body: string;
  author: string;
  inReplyTo: number | null;
}

export interface IssueQuery {
  search?: string | undefined;
  labels?: readonly string[] | undefined;
  /** Only those assigned to whom the token belongs to. */
  assignedToMe?: boolean | undefined;
}
