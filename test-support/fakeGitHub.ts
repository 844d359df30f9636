import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local stand-in for GitHub's REST API, written for the tests: one repository whose branches are
 * those of a local bare repository (the push remote), its pull requests, checks that a test moves
 * from pending to failed to passed, reviews and review comments, issues, merges done for real in
 * the bare repository, ETags, rate-limit headers, and every request recorded.
 */

export interface RecordedGitHubRequest {
  method: string;
  /** The path with its query string. */
  url: string;
  /** The origin the request was sent to (`http://127.0.0.1:PORT` or the log host). */
  origin: string;
  authorization: string | null;
  ifNoneMatch: string | null;
  /** The Range header (`bytes=-32768`: the last 32 KB). */
  range: string | null;
  body: unknown;
  status: number;
  /** The bytes of body the log host sent (or began to send) for it. */
  bytesServed: number;
}

export type FakeCheckState = 'pending' | 'failed' | 'passed';

interface FakePull {
  number: number;
  title: string;
  body: string;
  head: string;
  base: string;
  draft: boolean;
  state: 'open' | 'closed';
  mergedAt: string | null;
  /** The head commit at the merge. */
  mergedSha: string | null;
}

interface FakeComment {
  id: number;
  path: string;
  line: number;
  diffHunk: string;
  body: string;
  author: string;
  inReplyTo: number | null;
}

export interface FakeIssue {
  number: number;
  title: string;
  body: string;
  labels: string[];
  assignees: string[];
  author: string;
}

export interface FakeGitHubOptions {
  /** owner/name */
  repository: string;
  /** The bare repository the project pushes to: branch heads are read from it, merges written to it. */
  bareRepo: string;
  token: string;
  login?: string;
  /** What a classic token reports in X-OAuth-Scopes. */
  scopes?: string[];
}

const RUN_IDS = { build: 1001, test: 1002 } as const;
const BUILD_FAILURE = 'AssertionError: expected total() to be 3, got 2';
const LOG_FAILURE = 'FAIL test/cart.test.js: cart keeps 2 items (got 1)';
const GIT_IDENTITY = { GIT_AUTHOR_NAME: 'Fake GitHub', GIT_AUTHOR_EMAIL: 'noreply@github.invalid', GIT_COMMITTER_NAME: 'Fake GitHub', GIT_COMMITTER_EMAIL: 'noreply@github.invalid' };

/** `fillerBytes` of one endless line, then `end`, written as the reader takes them (never held whole). */
/** A job log: `fillerBytes` of one line without an end, then `end`; only its bytes from `from` are sent, counted in `record`. */
async function streamLog(response: http.ServerResponse, record: RecordedGitHubRequest, log: { fillerBytes: number; end: string; from: number; stalls: boolean }): Promise<void> {
  const chunk = Buffer.alloc(1024 * 1024, 'x');
  const send = (bytes: Buffer): Promise<void> | undefined => {
    record.bytesServed += bytes.length;
    if (response.write(bytes)) return undefined;
    return new Promise<void>((resolve) => {
      const done = () => {
        response.off('drain', done).off('close', done);
        resolve();
      };
      response.on('drain', done).on('close', done);
    });
  };
  for (let at = log.from; at < log.fillerBytes && !response.destroyed; at += chunk.length) {
    await send(chunk.subarray(0, Math.min(chunk.length, log.fillerBytes - at)));
    // A log host that stalls sends its first bytes, then nothing, never ending the log.
    if (log.stalls) return;
  }
  const end = Buffer.from(log.fillerBytes > 0 ? `\n${log.end}` : log.end);
  const rest = end.subarray(Math.max(0, log.from - log.fillerBytes));
  await send(rest);
  if (!log.stalls) response.end();
}

/** The first byte of a suffix range (`bytes=-N`, the last N bytes) of `total` bytes; null for any other range. */
function suffixRangeStart(range: string | null, total: number): number | null {
  const match = /^bytes=-(\d+)$/.exec(range ?? '');
  return match ? Math.max(0, total - Number(match[1])) : null;
}

export class FakeGitHub {
  /** Every request, in order, to the API and to the log host. */
  readonly requests: RecordedGitHubRequest[] = [];
  /** The text a failed check's annotation and its job log carry, for tests to look for. */
  static readonly BUILD_FAILURE = BUILD_FAILURE;
  static readonly LOG_FAILURE = LOG_FAILURE;

  token: string;
  scopes: string[];
  /** Answer every API request with 503 (the API is down). */
  down = false;
  /** Requests left in the rate limit; at 0 every request is refused with 403, as GitHub does. */
  rateRemaining = 5000;
  readonly rateLimit = 5000;
  readonly rateResetAt = Math.floor(Date.now() / 1000) + 3600;
  /** Branch protection: the base must contain the head's base tip (the branch is up to date). */
  requireUpToDate = false;
  mergeMethods = { merge: true, squash: true, rebase: true };
  /**
   * Bytes of one line without an end (a minified bundle, a progress bar) the job logs start with,
   * streamed before their usual last lines; 0: none.
   */
  jobLogFillerBytes = 0;
  /** Whether the log host answers a suffix Range with just those bytes (206), as GitHub's does; false: it sends the whole log. */
  jobLogHonoursRange = true;
  /** The log host sends a log's first bytes, then nothing more. */
  jobLogStalls = false;
  /** What a failed build check run says of itself (its output summary). */
  failedBuildSummary = 'cart.test.js: 1 of 12 tests failed';
  private readonly issues: FakeIssue[] = [];

  private readonly server: http.Server;
  private readonly pulls: FakePull[] = [];
  private readonly checks = new Map<string, FakeCheckState>();
  private readonly comments = new Map<number, FakeComment[]>();
  private readonly reviews = new Map<number, { login: string; state: string }[]>();
  private nextCommentId = 5001;
  /** Issues and pull requests share one numbering, as on GitHub. */
  private nextNumber = 1;
  private port = 0;

  constructor(private readonly options: FakeGitHubOptions) {
    this.token = options.token;
    this.scopes = options.scopes ?? ['repo'];
    this.server = http.createServer((request, response) => {
      let raw = '';
      request.setEncoding('utf8');
      request.on('data', (chunk: string) => (raw += chunk));
      request.on('end', () => this.handle(request, raw, response));
    });
  }

  /** The API's URL (what DROVER_GITHUB_API_URL or a project's API URL setting names). */
  async listen(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
    return this.url;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  /** The checks of a commit; a commit nobody set is pending. */
  setChecks(sha: string, state: FakeCheckState): void {
    this.checks.set(sha, state);
  }

  /** The head commit of the pull request for `branch`, as the forge sees it (what was pushed). */
  headOf(branch: string): string {
    return this.git('rev-parse', `refs/heads/${branch}`);
  }

  pullFor(branch: string): FakePull | undefined {
    return this.pulls.find((pull) => pull.head === branch);
  }

  addIssue(issue: Omit<FakeIssue, 'number'>): number {
    const number = this.nextNumber++;
    this.issues.push({ ...issue, number });
    return number;
  }

  /** A review comment on a line of the pull request's diff; returns its id. */
  addReviewComment(pullNumber: number, comment: Omit<FakeComment, 'id' | 'inReplyTo'> & { inReplyTo?: number }): number {
    const id = this.nextCommentId++;
    this.comments.set(pullNumber, [...(this.comments.get(pullNumber) ?? []), { ...comment, id, inReplyTo: comment.inReplyTo ?? null }]);
    return id;
  }

  addReview(pullNumber: number, login: string, state: 'APPROVED' | 'CHANGES_REQUESTED' | 'COMMENTED'): void {
    this.reviews.set(pullNumber, [...(this.reviews.get(pullNumber) ?? []), { login, state }]);
  }

  /** Requests that carried the token to anywhere but the API. */
  tokenLeaks(): RecordedGitHubRequest[] {
    return this.requests.filter((request) => request.origin !== this.url && request.authorization !== null);
  }

  private git(...args: string[]): string {
    return execFileSync('git', args, { cwd: this.options.bareRepo, encoding: 'utf8', env: { ...process.env, ...GIT_IDENTITY }, stdio: ['ignore', 'pipe', 'pipe'] }).trim();
  }

  private branchExists(branch: string): boolean {
    try {
      this.git('rev-parse', '--verify', '--quiet', `refs/heads/${branch}`);
      return true;
    } catch {
      return false;
    }
  }

  private handle(request: http.IncomingMessage, raw: string, response: http.ServerResponse): void {
    const url = new URL(request.url ?? '/', 'http://fake');
    const origin = `http://${request.headers.host ?? ''}`;
    let body: unknown = raw;
    try {
      body = raw ? JSON.parse(raw) : null;
    } catch {
      // Not JSON: kept as text.
    }
    const record: RecordedGitHubRequest = {
      method: request.method ?? 'GET',
      url: `${url.pathname}${url.search}`,
      origin,
      authorization: request.headers.authorization ?? null,
      ifNoneMatch: (request.headers['if-none-match'] as string | undefined) ?? null,
      range: request.headers.range ?? null,
      body,
      status: 0,
      bytesServed: 0,
    };
    this.requests.push(record);
    const send = (status: number, payload: unknown, headers: Record<string, string> = {}) => {
      record.status = status;
      const text = typeof payload === 'string' ? payload : JSON.stringify(payload);
      const etag = `"${createHash('sha1').update(text).digest('hex')}"`;
      const rate = { 'x-ratelimit-limit': String(this.rateLimit), 'x-ratelimit-remaining': String(this.rateRemaining), 'x-ratelimit-reset': String(this.rateResetAt) };
      if (record.method === 'GET' && status === 200 && record.ifNoneMatch === etag) {
        record.status = 304;
        response.writeHead(304, { etag, ...rate });
        response.end();
        return;
      }
      // Conditional requests answered 304 cost nothing, as on GitHub.
      if (origin === this.url && this.rateRemaining > 0) this.rateRemaining--;
      const type = typeof payload === 'string' ? 'text/plain' : 'application/json; charset=utf-8';
      response.writeHead(status, { 'content-type': type, etag, ...rate, 'x-oauth-scopes': this.scopes.join(', '), ...headers });
      response.end(status === 204 ? undefined : text);
    };
    if (origin !== this.url) {
      // The log host: job logs are served from another origin, behind a redirect, as GitHub does.
      const match = /^\/logs\/(\d+)$/.exec(url.pathname);
      const end = `2024-01-01T00:00:00Z Running tests\n2024-01-01T00:00:01Z ${LOG_FAILURE}\n2024-01-01T00:00:02Z Process completed with exit code 1.\n`;
      if (!match) return send(404, 'no such log');
      const fillerBytes = this.jobLogFillerBytes;
      const total = (fillerBytes > 0 ? fillerBytes + 1 : 0) + Buffer.byteLength(end);
      const from = this.jobLogHonoursRange ? suffixRangeStart(record.range, total) : null;
      record.status = from === null ? 200 : 206;
      response.writeHead(record.status, { 'content-type': 'text/plain', 'content-length': String(total - (from ?? 0)), ...(from === null ? {} : { 'content-range': `bytes ${from}-${total - 1}/${total}` }) });
      void streamLog(response, record, { fillerBytes, end, from: from ?? 0, stalls: this.jobLogStalls });
      return;
    }
    if (this.down) return send(503, { message: 'Service Unavailable' });
    const auth = record.authorization?.replace(/^(token|bearer) /i, '');
    if (auth !== this.token) return send(401, { message: 'Bad credentials', documentation_url: 'https://docs.github.com/rest' });
    if (this.rateRemaining <= 0) return send(403, { message: 'API rate limit exceeded for user.' });
    try {
      this.route(record.method, url, body, send);
    } catch (error) {
      send(500, { message: String(error) });
    }
  }

  private route(method: string, url: URL, body: unknown, send: (status: number, payload: unknown, headers?: Record<string, string>) => void): void {
    const repo = `/repos/${this.options.repository}`;
    const path = url.pathname;
    const input = (body ?? {}) as Record<string, unknown>;
    const at = (pattern: RegExp) => pattern.exec(path);
    let match: RegExpExecArray | null;
    if (method === 'GET' && path === '/user') return send(200, { login: this.options.login ?? 'octo-person' });
    if (method === 'GET' && path === '/search/issues') return send(200, this.search(url.searchParams.get('q') ?? ''));
    if (!path.startsWith(`${repo}`)) return send(404, { message: 'Not Found' });
    const rest = path.slice(repo.length);
    if (method === 'GET' && rest === '') {
      const [owner] = this.options.repository.split('/');
      return send(200, {
        full_name: this.options.repository,
        owner: { login: owner },
        default_branch: 'main',
        allow_merge_commit: this.mergeMethods.merge,
        allow_squash_merge: this.mergeMethods.squash,
        allow_rebase_merge: this.mergeMethods.rebase,
        html_url: `https://github.invalid/${this.options.repository}`,
      });
    }
    if (rest === '/pulls' && method === 'GET') {
      const head = url.searchParams.get('head')?.split(':').pop();
      const state = url.searchParams.get('state') ?? 'open';
      return send(200, this.pulls.filter((pull) => (!head || pull.head === head) && (state === 'all' || pull.state === state)).map((pull) => this.pullJson(pull)));
    }
    if (rest === '/pulls' && method === 'POST') {
      const head = String(input.head ?? '').split(':').pop() ?? '';
      if (!this.branchExists(head)) return send(422, { message: 'Validation Failed', errors: [{ resource: 'PullRequest', field: 'head', code: 'invalid' }] });
      if (this.pulls.some((pull) => pull.head === head && pull.state === 'open')) {
        return send(422, { message: 'Validation Failed', errors: [{ resource: 'PullRequest', code: 'custom', message: `A pull request already exists for ${this.options.repository.split('/')[0]}:${head}.` }] });
      }
      const pull: FakePull = { number: this.nextNumber++, title: String(input.title), body: String(input.body ?? ''), head, base: String(input.base), draft: input.draft === true, state: 'open', mergedAt: null, mergedSha: null };
      this.pulls.push(pull);
      return send(201, this.pullJson(pull));
    }
    if ((match = at(/^\/repos\/[^/]+\/[^/]+\/pulls\/(\d+)$/)) && method === 'GET') {
      const pull = this.pulls.find((candidate) => candidate.number === Number(match?.[1]));
      return pull ? send(200, this.pullJson(pull)) : send(404, { message: 'Not Found' });
    }
    if ((match = at(/^\/repos\/[^/]+\/[^/]+\/pulls\/(\d+)\/reviews$/))) return send(200, (this.reviews.get(Number(match[1])) ?? []).map((review, index) => ({ id: index + 1, user: { login: review.login }, state: review.state })));
    if ((match = at(/^\/repos\/[^/]+\/[^/]+\/pulls\/(\d+)\/comments$/))) {
      return send(
        200,
        (this.comments.get(Number(match[1])) ?? []).map((comment) => ({
          id: comment.id,
          path: comment.path,
          line: comment.line,
          original_line: comment.line,
          diff_hunk: comment.diffHunk,
          body: comment.body,
          user: { login: comment.author },
          in_reply_to_id: comment.inReplyTo ?? undefined,
          html_url: `https://github.invalid/${this.options.repository}/pull/${match?.[1]}#discussion_r${comment.id}`,
        })),
      );
    }
    if ((match = at(/^\/repos\/[^/]+\/[^/]+\/pulls\/(\d+)\/merge$/)) && method === 'PUT') return this.merge(Number(match[1]), input, send);
    if ((match = at(/^\/repos\/[^/]+\/[^/]+\/commits\/([^/]+)\/check-runs$/))) return send(200, this.checkRuns(decodeURIComponent(match[1] ?? '')));
    if ((match = at(/^\/repos\/[^/]+\/[^/]+\/commits\/([^/]+)\/status$/))) {
      return send(200, { state: 'success', statuses: [{ context: 'docs/preview', state: 'success', description: 'Preview ready', target_url: null }] });
    }
    if ((match = at(/^\/repos\/[^/]+\/[^/]+\/check-runs\/(\d+)\/annotations$/))) {
      return send(200, Number(match[1]) === RUN_IDS.build ? [{ path: 'src/cart.js', start_line: 3, end_line: 3, annotation_level: 'failure', message: BUILD_FAILURE }] : []);
    }
    if ((match = at(/^\/repos\/[^/]+\/[^/]+\/actions\/jobs\/(\d+)\/logs$/))) {
      return send(302, '', { location: `http://localhost:${this.port}/logs/${match[1]}` });
    }
    if (rest === '/labels') return send(200, [...new Set(this.issues.flatMap((issue) => issue.labels))].map((name) => ({ name })));
    if (rest === '/issues' && method === 'GET') {
      const labels = url.searchParams.get('labels')?.split(',').filter(Boolean) ?? [];
      const assignee = url.searchParams.get('assignee');
      const issues = this.issues.filter((issue) => labels.every((label) => issue.labels.includes(label)) && (!assignee || issue.assignees.includes(assignee)));
      // The issues endpoint lists pull requests too; Drover must leave them out.
      return send(200, [...issues.map((issue) => this.issueJson(issue)), ...this.pulls.filter((pull) => pull.state === 'open').map((pull) => ({ ...this.pullJson(pull), pull_request: {} }))]);
    }
    if ((match = at(/^\/repos\/[^/]+\/[^/]+\/issues\/(\d+)$/))) {
      const issue = this.issues.find((candidate) => candidate.number === Number(match?.[1]));
      if (issue) return send(200, this.issueJson(issue));
      const pull = this.pulls.find((candidate) => candidate.number === Number(match?.[1]));
      return pull ? send(200, { ...this.pullJson(pull), pull_request: {} }) : send(404, { message: 'Not Found' });
    }
    send(404, { message: 'Not Found' });
  }

  private search(query: string): unknown {
    const words = query.split(/\s+/).filter((word) => word && !/^(repo|is|state|label|assignee):/.test(word));
    const labels = [...query.matchAll(/label:"([^"]+)"/g)].map((found) => found[1] ?? '');
    const mine = /assignee:@me/.test(query) ? (this.options.login ?? 'octo-person') : null;
    const items = this.issues
      .filter((issue) => words.every((word) => `${issue.title} ${issue.body}`.toLowerCase().includes(word.toLowerCase())))
      .filter((issue) => labels.every((label) => issue.labels.includes(label)) && (!mine || issue.assignees.includes(mine)))
      .map((issue) => this.issueJson(issue));
    return { total_count: items.length, incomplete_results: false, items };
  }

  private issueJson(issue: FakeIssue): unknown {
    return {
      number: issue.number,
      title: issue.title,
      body: issue.body,
      state: 'open',
      html_url: `https://github.invalid/${this.options.repository}/issues/${issue.number}`,
      user: { login: issue.author },
      labels: issue.labels.map((name) => ({ name })),
      assignees: issue.assignees.map((login) => ({ login })),
      created_at: '2024-05-01T10:00:00Z',
    };
  }

  private headSha(pull: FakePull): string {
    return pull.mergedSha ?? this.headOf(pull.head);
  }

  /** GitHub's mergeable_state: behind when the head lacks the base's tip and the repository wants branches up to date. */
  private mergeableState(pull: FakePull): string {
    if (pull.draft) return 'draft';
    const head = this.headSha(pull);
    const behind = this.git('rev-list', '--count', `${head}..refs/heads/${pull.base}`) !== '0';
    if (behind && this.requireUpToDate) return 'behind';
    const state = this.checks.get(head) ?? 'pending';
    return state === 'failed' ? 'unstable' : state === 'pending' ? 'blocked' : 'clean';
  }

  private pullJson(pull: FakePull): Record<string, unknown> {
    const merged = pull.mergedAt !== null;
    return {
      number: pull.number,
      html_url: `https://github.invalid/${this.options.repository}/pull/${pull.number}`,
      title: pull.title,
      body: pull.body,
      state: pull.state,
      draft: pull.draft,
      merged,
      merged_at: pull.mergedAt,
      base: { ref: pull.base },
      head: { ref: pull.head, sha: this.headSha(pull) },
      mergeable: merged ? null : true,
      mergeable_state: merged ? 'unknown' : this.mergeableState(pull),
    };
  }

  /** A ref is a commit or, as GitHub reads it too, a branch (its tip). */
  private checkRuns(ref: string): unknown {
    const state = this.checks.get(this.branchExists(ref) ? this.headOf(ref) : ref) ?? 'pending';
    const completed = state !== 'pending';
    const conclusion = state === 'failed' ? 'failure' : 'success';
    return {
      total_count: 2,
      check_runs: [
        {
          id: RUN_IDS.build,
          name: 'build',
          status: completed ? 'completed' : 'in_progress',
          conclusion: completed ? conclusion : null,
          html_url: `https://github.invalid/${this.options.repository}/runs/${RUN_IDS.build}`,
          output: state === 'failed' ? { title: '1 test failed', summary: this.failedBuildSummary, annotations_count: 1 } : { title: null, summary: null, annotations_count: 0 },
        },
        {
          id: RUN_IDS.test,
          name: 'test (node 20)',
          status: completed ? 'completed' : 'queued',
          conclusion: completed ? conclusion : null,
          html_url: `https://github.invalid/${this.options.repository}/actions/runs/7/job/${RUN_IDS.test}`,
          output: { title: null, summary: null, annotations_count: 0 },
        },
      ],
    };
  }

  private merge(number: number, input: Record<string, unknown>, send: (status: number, payload: unknown) => void): void {
    const pull = this.pulls.find((candidate) => candidate.number === number);
    if (!pull) return send(404, { message: 'Not Found' });
    if (pull.state !== 'open') return send(405, { message: 'Pull Request is not mergeable' });
    const method = String(input.merge_method ?? 'merge') as keyof FakeGitHub['mergeMethods'];
    if (!this.mergeMethods[method]) return send(405, { message: `${method[0]?.toUpperCase()}${method.slice(1)} merges are not allowed on this repository.` });
    const head = this.headOf(pull.head);
    if (input.sha !== undefined && input.sha !== head) return send(409, { message: 'Head branch was modified. Review and try the merge again.' });
    const state = this.mergeableState(pull);
    if (state === 'behind') return send(405, { message: 'Head branch is out of date. Review and try the merge again.' });
    if (state !== 'clean') return send(405, { message: 'Repository rule violations found\n\nRequired status check "build" is expected.' });
    const baseRef = `refs/heads/${pull.base}`;
    const base = this.git('rev-parse', baseRef);
    let commit: string;
    if (method === 'rebase') {
      commit = base;
      for (const original of this.git('rev-list', '--reverse', `${base}..${head}`).split('\n').filter(Boolean)) {
        const tree = this.git('merge-tree', '--write-tree', `--merge-base=${original}^`, commit, original);
        commit = this.git('commit-tree', tree, '-p', commit, '-m', this.git('log', '-1', '--format=%B', original));
      }
    } else {
      const tree = this.git('merge-tree', '--write-tree', base, head);
      const parents = method === 'merge' ? ['-p', base, '-p', head] : ['-p', base];
      commit = this.git('commit-tree', tree, ...parents, '-m', method === 'merge' ? `Merge pull request #${number} from ${pull.head}` : `${pull.title} (#${number})`);
    }
    this.git('update-ref', baseRef, commit, base);
    pull.state = 'closed';
    pull.mergedAt = new Date().toISOString();
    pull.mergedSha = head;
    send(200, { sha: commit, merged: true, message: 'Pull Request successfully merged' });
  }
}
