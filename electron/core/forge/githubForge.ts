import { Octokit } from '@octokit/rest';
import type { Check, MergeMethod, Mergeability, RateLimit } from '../../../shared/forge';
import { fail } from '../errors';
import type { Forge, ForgePullRequest, IssueQuery, ReviewComment } from './forge';
import { webUrlOf } from './forgeRemote';

/** What a call needs, for the message when the token may not do it. */
interface Action {
  what: string;
  /** The fine-grained permission, and the classic scope, that allow it. */
  permission: string;
}

const ACTIONS = {
  viewer: { what: 'say whose it is', permission: 'any valid token' },
  read: { what: 'read the repository', permission: 'Metadata: read (classic: repo, or public_repo for a public repository)' },
  pulls: { what: 'read its pull requests', permission: 'Pull requests: read (classic: repo)' },
  openPull: { what: 'open a pull request', permission: 'Pull requests: read and write (classic: repo)' },
  checks: { what: 'read the checks', permission: 'Checks: read and Commit statuses: read (classic: repo)' },
  logs: { what: 'read the job log', permission: 'Actions: read (classic: repo)' },
  merge: { what: 'merge the pull request', permission: 'Contents: read and write, and Pull requests: read and write (classic: repo)' },
  issues: { what: 'read the issues', permission: 'Issues: read (classic: repo)' },
} satisfies Record<string, Action>;

interface HttpError {
  status: number;
  message: string;
  response?: { headers: Record<string, string | number | undefined>; data?: unknown };
}

function isHttpError(error: unknown): error is HttpError {
  return typeof error === 'object' && error !== null && typeof (error as { status?: unknown }).status === 'number';
}

/** GitHub's validation errors carry their real message inside `errors`. */
function forgeMessage(error: HttpError): string {
  const data = error.response?.data as { message?: string; errors?: { message?: string; field?: string; code?: string }[] } | undefined;
  const details = (data?.errors ?? []).map((item) => item.message ?? [item.field, item.code].filter(Boolean).join(' ')).filter(Boolean);
  return [data?.message ?? error.message, ...details].join(': ');
}

const ANSI = new RegExp(String.raw`\u001b\[[0-?]*[ -/]*[@-~]`, 'g');
const LOG_TAIL_LINES = 25;
/** The most of a job's log that is read: its end, however long the log (GitHub keeps logs of hundreds of megabytes). */
const LOG_TAIL_BYTES = 32 * 1024;
/** How long reading a job's log may take before Drover quotes none of it. */
const LOG_READ_TIMEOUT_MS = 30_000;

/**
 * The last lines of an Actions job log, without its timestamps and colours. `cut` says the text
 * starts inside the log: its first line is then marked as the end of a longer one.
 */
export function logTail(log: string, cut = false): string {
  const lines = log.split(/\r?\n/);
  if (cut && lines.length > 0) lines[0] = `…${lines[0] ?? ''}`;
  return lines
    .map((line) => line.replace(ANSI, '').replace(/^\d{4}-\d\d-\d\dT[\d:.]+Z ?/, '').trimEnd())
    .filter((line) => line.length > 0)
    .slice(-LOG_TAIL_LINES)
    .join('\n');
}

/** The last `maxBytes` of a download, kept as it streams in: a log of any length costs that much memory. */
async function lastBytesOf(body: ReadableStream<Uint8Array>, maxBytes: number): Promise<{ bytes: Buffer; cut: boolean }> {
  const reader = body.getReader();
  const kept: Buffer[] = [];
  let size = 0;
  let cut = false;
  for (let read = await reader.read(); !read.done; read = await reader.read()) {
    kept.push(Buffer.from(read.value));
    size += read.value.length;
    for (let first = kept[0]; first && size - first.length >= maxBytes; first = kept[0]) {
      kept.shift();
      size -= first.length;
      cut = true;
    }
  }
  const bytes = Buffer.concat(kept);
  return bytes.length > maxBytes ? { bytes: bytes.subarray(bytes.length - maxBytes), cut: true } : { bytes, cut };
}

function checkRunState(status: string, conclusion: string | null): Check['state'] {
  if (status !== 'completed') return 'pending';
  if (conclusion === 'success' || conclusion === 'neutral') return 'passed';
  if (conclusion === 'skipped') return 'skipped';
  return 'failed';
}

function statusState(state: string): Check['state'] {
  if (state === 'success') return 'passed';
  if (state === 'pending') return 'pending';
  return 'failed';
}

const MERGEABILITY: Readonly<Record<string, Mergeability>> = {
  clean: 'mergeable',
  has_hooks: 'mergeable',
  unstable: 'checks-failing',
  dirty: 'conflicts',
  behind: 'behind',
  blocked: 'blocked',
  draft: 'draft',
};

const time = (iso: string | null | undefined): number | null => (iso ? Date.parse(iso) : null);

/**
 * A check's summary as the pull request keeps it: its first line's worth. A check run's summary may
 * be a whole report (GitHub allows 65,535 characters, for each of a hundred runs), and every
 * agent's pull request is part of the project's work state.
 */
const MAX_SUMMARY_CHARS = 1_000;
const summaryOf = (text: string | null): string | null => (text !== null && text.length > MAX_SUMMARY_CHARS ? `${text.slice(0, MAX_SUMMARY_CHARS - 1)}…` : text);

export interface GitHubForgeOptions {
  apiUrl: string;
  /** owner/name */
  repository: string;
  token: string;
  /** Where the token came from, for the message when it is refused. */
  tokenSource: string;
  userAgent: string;
  log(line: string): void;
  /** How long reading a job's log may take (30 s unless said). */
  logReadTimeoutMs?: number;
}

/**
 * GitHub's REST API through Octokit, for one repository. GETs are conditional (ETag), so a poll
 * that finds nothing new costs no rate limit; every request goes to the API's own origin only,
 * never following a redirect elsewhere with the token.
 */
export class GitHubForge implements Forge {
  readonly apiUrl: string;
  private readonly octokit: Octokit;
  private readonly owner: string;
  private readonly repo: string;
  private readonly etags = new Map<string, { etag: string; data: unknown }>();
  private rate: RateLimit | null = null;
  private login: string | null = null;

  constructor(private readonly options: GitHubForgeOptions) {
    this.apiUrl = options.apiUrl;
    [this.owner = '', this.repo = ''] = options.repository.split('/');
    const apiOrigin = new URL(options.apiUrl).origin;
    const apiOnly: typeof fetch = (input, init) => {
      const target = new URL(input instanceof Request ? input.url : String(input));
      if (target.origin !== apiOrigin) return Promise.reject(new Error(`Drover sends the token to ${apiOrigin} only, and a request went to ${target.origin}`));
      return fetch(input, { ...init, redirect: 'manual' });
    };
    this.octokit = new Octokit({
      auth: options.token,
      baseUrl: options.apiUrl,
      userAgent: options.userAgent,
      request: { fetch: apiOnly, redirect: 'manual' },
      log: { debug: () => {}, info: () => {}, warn: (line: string) => options.log(`GitHub: ${line}`), error: (line: string) => options.log(`GitHub: ${line}`) },
    });
    this.octokit.hook.after('request', (response) => this.noteRate(response.headers));
    this.octokit.hook.error('request', (error) => {
      if (isHttpError(error) && error.response) this.noteRate(error.response.headers);
      throw error;
    });
  }

  rateLimit(): RateLimit | null {
    return this.rate;
  }

  async viewer(): Promise<{ login: string; scopes: string[] | null }> {
    const response = await this.call(ACTIONS.viewer, () => this.octokit.rest.users.getAuthenticated());
    const scopes = response.headers['x-oauth-scopes'];
    this.login = response.data.login;
    return { login: response.data.login, scopes: typeof scopes === 'string' ? scopes.split(',').map((scope) => scope.trim()).filter(Boolean) : null };
  }

  async repository(): Promise<{ mergeMethods: MergeMethod[] }> {
    const data = await this.get(ACTIONS.read, 'repo', (headers) => this.octokit.rest.repos.get({ ...this.repoParams(), headers }));
    const allowed: [MergeMethod, boolean | undefined][] = [
      ['merge', data.allow_merge_commit],
      ['squash', data.allow_squash_merge],
      ['rebase', data.allow_rebase_merge],
    ];
    // A token that may not see the settings gets none of them: GitHub's defaults allow all three.
    return { mergeMethods: allowed.filter(([, allow]) => allow !== false).map(([method]) => method) };
  }

  async openPullRequestFor(head: string): Promise<{ number: number; url: string } | null> {
    const found = await this.get(ACTIONS.pulls, `pulls ${head}`, (headers) => this.octokit.rest.pulls.list({ ...this.repoParams(), head, state: 'open', per_page: 5, headers }));
    const first = found[0];
    return first ? { number: first.number, url: first.html_url } : null;
  }

  async createPullRequest(input: { head: string; base: string; title: string; body: string; draft: boolean }): Promise<number> {
    const response = await this.call(ACTIONS.openPull, () => this.octokit.rest.pulls.create({ ...this.repoParams(), ...input }));
    return response.data.number;
  }

  async pullRequest(number: number): Promise<ForgePullRequest> {
    const data = await this.get(ACTIONS.pulls, `pull ${number}`, (headers) => this.octokit.rest.pulls.get({ ...this.repoParams(), pull_number: number, headers }));
    const state = data.merged ? 'merged' : data.state === 'closed' ? 'closed' : data.draft ? 'draft' : 'open';
    const mergeability = data.mergeable === false ? 'conflicts' : (MERGEABILITY[data.mergeable_state] ?? 'unknown');
    return {
      number: data.number,
      url: data.html_url,
      title: data.title,
      state,
      baseBranch: data.base.ref,
      headBranch: data.head.ref,
      headSha: data.head.sha,
      mergeability,
      mergedAt: time(data.merged_at),
    };
  }

  async checks(sha: string): Promise<Check[]> {
    const [runs, combined] = await Promise.all([
      this.get(ACTIONS.checks, `check-runs ${sha}`, (headers) => this.octokit.rest.checks.listForRef({ ...this.repoParams(), ref: sha, per_page: 100, headers })),
      this.get(ACTIONS.checks, `statuses ${sha}`, (headers) => this.octokit.rest.repos.getCombinedStatusForRef({ ...this.repoParams(), ref: sha, per_page: 100, headers })),
    ]);
    const fromRuns: Check[] = runs.check_runs.map((run) => ({
      id: `run:${run.id}`,
      name: run.name,
      state: checkRunState(run.status, run.conclusion),
      conclusion: run.conclusion ?? run.status,
      summary: summaryOf([run.output.title, run.output.summary].filter((part): part is string => Boolean(part)).join(': ') || null),
      url: run.html_url ?? null,
    }));
    const fromStatuses: Check[] = combined.statuses.map((status) => ({
      id: `status:${status.context}`,
      name: status.context,
      state: statusState(status.state),
      conclusion: status.state,
      summary: summaryOf(status.description ?? null),
      url: status.target_url ?? null,
    }));
    return [...fromRuns, ...fromStatuses];
  }

  async reviewDecision(number: number): Promise<'none' | 'approved' | 'changes-requested'> {
    const reviews = await this.get(ACTIONS.pulls, `reviews ${number}`, (headers) => this.octokit.rest.pulls.listReviews({ ...this.repoParams(), pull_number: number, per_page: 100, headers }));
    // Each reviewer's latest approval or change request stands; comments alone change nothing.
    const latest = new Map<string, string>();
    for (const review of reviews) if (review.state === 'APPROVED' || review.state === 'CHANGES_REQUESTED' || review.state === 'DISMISSED') latest.set(review.user?.login ?? '', review.state);
    const states = [...latest.values()];
    if (states.includes('CHANGES_REQUESTED')) return 'changes-requested';
    return states.includes('APPROVED') ? 'approved' : 'none';
  }

  async reviewComments(number: number): Promise<ReviewComment[]> {
    const comments = await this.get(ACTIONS.pulls, `comments ${number}`, (headers) => this.octokit.rest.pulls.listReviewComments({ ...this.repoParams(), pull_number: number, per_page: 100, headers }));
    return comments.map((comment) => ({
      id: comment.id,
      path: comment.path,
      line: comment.line ?? comment.original_line ?? null,
      diffHunk: comment.diff_hunk,
      body: comment.body,
      author: comment.user?.login ?? 'someone',
      inReplyTo: comment.in_reply_to_id ?? null,
    }));
  }

  async failureDetails(check: Check): Promise<string> {
    const parts = check.summary ? [check.summary] : [];
    if (!check.id.startsWith('run:')) return parts.join('\n');
    const runId = Number(check.id.slice('run:'.length));
    const annotations = await this.get(ACTIONS.checks, `annotations ${runId}`, (headers) => this.octokit.rest.checks.listAnnotations({ ...this.repoParams(), check_run_id: runId, per_page: 50, headers }));
    if (annotations.length > 0) {
      return [...parts, ...annotations.map((note) => `${note.path}:${note.start_line}: ${note.message ?? ''}`.trim())].join('\n');
    }
    const tail = await this.jobLogTail(runId);
    return [...parts, ...(tail ? [`Log tail:\n${tail}`] : [])].join('\n');
  }

  async merge(number: number, method: MergeMethod, headSha: string): Promise<void> {
    await this.call(ACTIONS.merge, () => this.octokit.rest.pulls.merge({ ...this.repoParams(), pull_number: number, merge_method: method, sha: headSha }));
  }

  async issues(query: IssueQuery): Promise<{ number: number; title: string; url: string; author: string | null; labels: string[]; assignees: string[]; createdAt: number }[]> {
    type IssueJson = { number: number; title: string; html_url: string; user?: { login: string } | null; labels: (string | { name?: string })[]; assignees?: { login: string }[] | null; created_at: string; pull_request?: unknown };
    let found: IssueJson[];
    if (query.search) {
      const words = [`repo:${this.owner}/${this.repo}`, 'is:issue', 'is:open', query.search, ...(query.labels ?? []).map((label) => `label:"${label}"`), ...(query.assignedToMe ? ['assignee:@me'] : [])];
      const q = words.join(' ');
      found = (await this.get(ACTIONS.issues, `search ${q}`, (headers) => this.octokit.request('GET /search/issues', { q, per_page: 50, headers }))).items;
    } else {
      const assignee = query.assignedToMe ? (this.login ?? (await this.viewer()).login) : undefined;
      const labels = query.labels?.length ? query.labels.join(',') : undefined;
      found = await this.get(ACTIONS.issues, `issues ${labels ?? ''} ${assignee ?? ''}`, (headers) =>
        this.octokit.rest.issues.listForRepo({ ...this.repoParams(), state: 'open', per_page: 50, ...(labels ? { labels } : {}), ...(assignee ? { assignee } : {}), headers }),
      );
    }
    return found
      .filter((issue) => !issue.pull_request)
      .map((issue) => ({
        number: issue.number,
        title: issue.title,
        url: issue.html_url,
        author: issue.user?.login ?? null,
        labels: issue.labels.map((label) => (typeof label === 'string' ? label : (label.name ?? ''))).filter(Boolean),
        assignees: (issue.assignees ?? []).map((person) => person.login),
        createdAt: time(issue.created_at) ?? 0,
      }));
  }

  async issue(number: number): Promise<{ number: number; title: string; url: string; body: string }> {
    const data = await this.get(ACTIONS.issues, `issue ${number}`, (headers) => this.octokit.rest.issues.get({ ...this.repoParams(), issue_number: number, headers }));
    if (data.pull_request) fail('invalid-state', `#${number} is a pull request, not an issue.`);
    return { number: data.number, title: data.title, url: data.html_url, body: data.body ?? '' };
  }

  async labels(): Promise<string[]> {
    const labels = await this.get(ACTIONS.issues, 'labels', (headers) => this.octokit.rest.issues.listLabelsForRepo({ ...this.repoParams(), per_page: 100, headers }));
    return labels.map((label) => label.name);
  }

  /**
   * The end of the job's log: GitHub answers with a redirect to a short-lived download address on
   * another host, which is fetched without the token (the address itself grants access).
   */
  private async jobLogTail(jobId: number): Promise<string | null> {
    let location: string | undefined;
    try {
      const response = await this.octokit.rest.actions.downloadJobLogsForWorkflowRun({ ...this.repoParams(), job_id: jobId });
      location = typeof response.headers.location === 'string' ? response.headers.location : undefined;
    } catch (error) {
      // Not an Actions job (another app's check run), or a log that expired: there is no log to quote.
      if (isHttpError(error) && (error.status === 404 || error.status === 410)) return null;
      this.explain(error, ACTIONS.logs);
    }
    if (!location) return null;
    // Only the log's end is asked for; a server that ignores the range sends it all, and only its end is kept as it streams.
    const signal = AbortSignal.timeout(this.options.logReadTimeoutMs ?? LOG_READ_TIMEOUT_MS);
    const download = await fetch(location, { redirect: 'follow', headers: { range: `bytes=-${LOG_TAIL_BYTES}` }, signal }).catch(() => null);
    if (!download?.ok || !download.body) return null;
    const tail = await lastBytesOf(download.body, LOG_TAIL_BYTES).catch(() => null);
    if (!tail) return null;
    // A range that starts past the log's first byte is cut too (`bytes 1024-33791/33792`).
    const cut = tail.cut || (download.status === 206 && !/^bytes 0-/.test(download.headers.get('content-range') ?? ''));
    // Cut inside a character, its first bytes decode to U+FFFD within the line marked as cut.
    return logTail(new TextDecoder().decode(tail.bytes), cut);
  }

  /** A conditional GET: an unchanged answer (304) is served from the last one, costing no rate limit. */
  private async get<T>(action: Action, key: string, request: (headers: Record<string, string>) => Promise<{ data: T; headers: Record<string, unknown> }>): Promise<T> {
    const cached = this.etags.get(key);
    try {
      const response = await request(cached ? { 'if-none-match': cached.etag } : {});
      const etag = response.headers.etag;
      if (typeof etag === 'string') this.etags.set(key, { etag, data: response.data });
      return response.data;
    } catch (error) {
      if (isHttpError(error) && error.status === 304 && cached) return cached.data as T;
      this.explain(error, action);
    }
  }

  private repoParams(): { owner: string; repo: string } {
    return { owner: this.owner, repo: this.repo };
  }

  private async call<T>(action: Action, request: () => Promise<T>): Promise<T> {
    try {
      return await request();
    } catch (error) {
      this.explain(error, action);
    }
  }

  private noteRate(headers: Record<string, string | number | undefined>): void {
    const limit = Number(headers['x-ratelimit-limit']);
    const remaining = Number(headers['x-ratelimit-remaining']);
    const reset = Number(headers['x-ratelimit-reset']);
    if (Number.isFinite(limit) && Number.isFinite(remaining) && Number.isFinite(reset)) this.rate = { limit, remaining, resetsAt: reset * 1000 };
  }

  /** Every failure in a person's words: what went wrong, and what to do about it. */
  private explain(error: unknown, action: Action): never {
    const where = `GitHub's API at ${this.apiUrl}`;
    if (!isHttpError(error)) {
      const cause = (error as { cause?: { message?: string } }).cause?.message ?? (error instanceof Error ? error.message : String(error));
      fail('invalid-state', `Cannot reach ${where} (${cause}). Check the API URL in the project's GitHub settings, or try again once it is up.`);
    }
    const message = forgeMessage(error);
    const headers = error.response?.headers ?? {};
    const spent = headers['x-ratelimit-remaining'] === '0' || headers['x-ratelimit-remaining'] === 0 || error.status === 429 || headers['retry-after'] !== undefined;
    if (error.status === 401) {
      fail('invalid-state', `GitHub refused the token from ${this.options.tokenSource} (${message}): it is expired, revoked or mistyped. Log in again with gh auth login, or paste a new token in the project's GitHub settings.`);
    }
    if ((error.status === 403 || error.status === 429) && spent) {
      const resetsAt = this.rate?.resetsAt ?? Date.now() + Number(headers['retry-after'] ?? 60) * 1000;
      fail('invalid-state', `GitHub's rate limit for this token is spent until ${new Date(resetsAt).toLocaleTimeString()}; Drover tries again then.`);
    }
    if (error.status === 403) fail('invalid-state', `The token may not ${action.what} of ${this.owner}/${this.repo}: it needs ${action.permission}. GitHub said: ${message}`);
    if (error.status === 404) {
      fail('not-found', `GitHub found nothing at ${this.owner}/${this.repo} to ${action.what} (${message}). Check the repository in the project's GitHub settings; a private repository also needs a token with ${action.permission}.`);
    }
    if (error.status === 405 || error.status === 409 || error.status === 422) fail('conflict', `GitHub refused to ${action.what}: ${message}`);
    if (error.status >= 500) fail('invalid-state', `${where} answered ${error.status} (${message}): GitHub may be down. Try again later; see ${webUrlOf(this.apiUrl)}.`);
    fail('invalid-state', `${where} answered ${error.status} when asked to ${action.what}: ${message}`);
  }
}
