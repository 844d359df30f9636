import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Agent } from '../../../shared/entities/agents';
import type { Project } from '../../../shared/entities/projects';
import type { Worktree } from '../../../shared/entities/worktrees';
import type { ForgeLink } from '../../../shared/forge';
import { MAX_MESSAGE_CHARS } from '../../../shared/messageBody';
import { FakeGitHub } from '../../../test-support/fakeGitHub';
import { addBareOrigin, branchesStartingWith, commitFiles, git, makeRepo, writeFiles } from '../../../test-support/gitRepo';
import { makeTempDir, removeDir } from '../../../test-support/tempDir';
import { waitFor } from '../../../test-support/waitFor';
import { createCore, type Core } from '../compose';

const TOKEN = 'ghp_testtoken0123456789';

/** A project folder with a bare origin, and a fake GitHub whose branches are that origin's. */
async function shopOnFakeGitHub(dir: string, scopes?: string[]): Promise<{ repo: string; bare: string; fake: FakeGitHub }> {
  const repo = makeRepo(path.join(dir, 'shop'), { 'src/cart.js': 'export const total = () => 2;\n' });
  const bare = addBareOrigin(repo, path.join(dir, 'remote.git'));
  const fake = new FakeGitHub({ repository: 'acme/shop', bareRepo: bare, token: TOKEN, ...(scopes ? { scopes } : {}) });
  await fake.listen();
  return { repo, bare, fake };
}

describe('the GitHub loop against a fake GitHub and a bare push remote', () => {
  let dir: string;
  let repo: string;
  let bare: string;
  let fake: FakeGitHub;
  let core: Core;
  let project: Project;

  /** A Drover whose GitHub is the fake (DROVER_GITHUB_API_URL), with no gh on PATH. */
  const start = (env: NodeJS.ProcessEnv = {}) => {
    core = createCore({
      dataDir: path.join(dir, 'data'),
      version: 'test',
      socketPath: '/unused',
      portBlocksDir: path.join(dir, 'ports'),
      env: { PATH: '/usr/bin:/bin', HOME: dir, SHELL: '/bin/sh', DROVER_GITHUB_API_URL: fake.url, GH_TOKEN: TOKEN, DROVER_GITHUB_POLL_MS: '100', ...env },
    });
  };
  const link = async (agentId: string): Promise<ForgeLink | undefined> => (await core.api.getWorkState({ projectId: project.id })).forgeLinks.find((found) => found.agentId === agentId);
  const linkWhere = (agentId: string, what: string, test: (found: ForgeLink) => boolean) =>
    waitFor(async () => {
      const found = await link(agentId);
      return found && test(found) && found;
    }, what);
  const addAgent = async (name: string): Promise<{ agent: Agent; worktree: Worktree }> => {
    const agent = await core.api.createAgent({ projectId: project.id, name, role: '', profileId: 'shell', workspace: { kind: 'new-worktree' } });
    const worktree = (await core.api.getWorkState({ projectId: project.id })).worktrees.find((found) => found.agentId === agent.id) as Worktree;
    return { agent, worktree };
  };
  const openPullRequest = async (agentId: string) => {
    const draft = await core.api.draftPullRequest({ agentId });
    return core.api.createPullRequest({ agentId, title: draft.title, body: draft.body, draft: false });
  };

  beforeEach(async () => {
    dir = makeTempDir();
    ({ repo, bare, fake } = await shopOnFakeGitHub(dir));
    start();
    project = await core.api.addProject({ path: repo });
    // origin is a local folder: the repository on GitHub is a project setting.
    await core.api.updateProjectSettings({ projectId: project.id, settings: { forgeRepository: 'acme/shop' } });
  });
  afterEach(async () => {
    await core.close();
    await fake.close();
    removeDir(dir);
  });

  it('opens a pull request, follows its checks, sends failures and review comments to the agent, merges and archives', async () => {
    const { agent, worktree } = await addAgent('fixer');
    const other = await addAgent('bystander');
    commitFiles(worktree.path, { 'src/cart.js': 'export const total = () => 3;\n' }, 'Count the third item\n\nThe cart dropped its last item.');

    const draft = await core.api.draftPullRequest({ agentId: agent.id });
    expect(draft).toMatchObject({ title: 'Count the third item', body: 'The cart dropped its last item.', baseBranch: 'main', headBranch: worktree.branch, commits: 1 });
    expect(() => git(bare, 'rev-parse', '--verify', `refs/heads/${worktree.branch}`)).toThrow();

    const opened = await core.api.createPullRequest({ agentId: agent.id, title: 'Count the third item', body: draft.body, draft: false });
    const head = git(worktree.path, 'rev-parse', 'HEAD');
    // Only the agent's branch was pushed.
    expect(git(bare, 'for-each-ref', '--format=%(refname:short)', 'refs/heads').split('\n').sort()).toEqual([worktree.branch, 'main'].sort());
    expect(opened.pullRequest).toMatchObject({ number: 1, state: 'open', baseBranch: 'main', headSha: head, checksState: 'pending', mergeMethods: ['merge', 'squash', 'rebase'] });
    expect(fake.requests.find((request) => request.method === 'POST')?.body).toMatchObject({ head: worktree.branch, base: 'main', title: 'Count the third item', draft: false });

    // Polls are conditional: once nothing changes, GitHub answers 304.
    await waitFor(() => fake.requests.some((request) => request.status === 304), 'a poll answered 304 Not Modified');

    fake.setChecks(head, 'failed');
    const failed = await linkWhere(agent.id, 'the checks to fail', (found) => found.pullRequest?.checksState === 'failed');
    expect(failed.pullRequest?.checks.filter((check) => check.state === 'failed').map((check) => check.name)).toEqual(['build', 'test (node 20)']);
    expect(failed.checksSentFor).toBeNull();

    const sent = await core.api.sendForgeFeedback({ agentId: agent.id, what: 'failed-checks' });
    expect(sent.agentId).toBe(agent.id);
    expect(sent.body).toContain(FakeGitHub.BUILD_FAILURE);
    expect(sent.body).toContain('src/cart.js:3');
    expect(sent.body).toContain(FakeGitHub.LOG_FAILURE);
    expect((await link(agent.id))?.checksSentFor).toBe(`${head}:run:1001,run:1002`);
    // The job log came from the log host, fetched without the token; nothing else left the API.
    expect(fake.requests.some((request) => request.origin !== fake.url && request.url === '/logs/1002')).toBe(true);
    expect(fake.tokenLeaks()).toEqual([]);
    await expect(core.api.sendForgeFeedback({ agentId: other.agent.id, what: 'failed-checks' })).rejects.toThrow('bystander has no pull request yet');

    // The agent fixes it; the new commit is pushed and its checks pass.
    commitFiles(worktree.path, { 'src/cart.js': 'export const total = () => 3; // all items\n' }, 'Keep every item');
    const fixed = git(worktree.path, 'rev-parse', 'HEAD');
    await expect(core.api.mergePullRequest({ agentId: agent.id, method: 'squash' })).rejects.toThrow('has commits that are not pushed');
    await core.api.pushWorktreeBranch({ agentId: agent.id });
    await core.api.refreshPullRequest({ agentId: agent.id });
    await linkWhere(agent.id, 'the new head, pending', (found) => found.pullRequest?.headSha === fixed && found.pullRequest.checksState === 'pending');
    fake.setChecks(fixed, 'passed');
    await linkWhere(agent.id, 'the checks to pass', (found) => found.pullRequest?.checksState === 'passed');

    // A review comment, sent once, grouped with its thread.
    const commentId = fake.addReviewComment(1, { path: 'src/cart.js', line: 1, diffHunk: '@@ -1 +1 @@\n-export const total = () => 2;\n+export const total = () => 3; // all items', body: 'Name the constant instead of a comment.', author: 'reviewer' });
    fake.addReviewComment(1, { path: 'src/cart.js', line: 1, diffHunk: '', body: 'Agreed.', author: 'second-reviewer', inReplyTo: commentId });
    await linkWhere(agent.id, 'the review comments', (found) => found.pullRequest?.reviewCommentIds.length === 2);
    const review = await core.api.sendForgeFeedback({ agentId: agent.id, what: 'review-comments' });
    expect(review.body).toContain('1. src/cart.js line 1 (reviewer):');
    expect(review.body).toContain('> +export const total = () => 3; // all items');
    expect(review.body).toContain('Name the constant instead of a comment.');
    expect(review.body).toContain('second-reviewer replied: Agreed.');
    await expect(core.api.sendForgeFeedback({ agentId: agent.id, what: 'review-comments' })).rejects.toThrow('no review comments that fixer was not sent already');

    fake.mergeMethods.rebase = false;
    await expect(core.api.mergePullRequest({ agentId: agent.id, method: 'rebase' })).rejects.toThrow('acme/shop does not allow rebase merges; it allows merge, squash');
    const merged = await core.api.mergePullRequest({ agentId: agent.id, method: 'squash' });
    expect(merged.pullRequest?.state).toBe('merged');
    expect(git(bare, 'show', 'main:src/cart.js')).toBe('export const total = () => 3; // all items');

    const branchesBefore = branchesStartingWith(repo, '');
    const archived = await core.api.archiveAgent({ agentId: agent.id });
    expect(archived).toEqual({ agentId: agent.id, deletedBranch: worktree.branch, keptBranch: null });
    expect(fs.existsSync(worktree.path)).toBe(false);
    expect(branchesStartingWith(repo, '')).toEqual(branchesBefore.filter((branch) => branch !== worktree.branch));
    expect(fs.existsSync(other.worktree.path)).toBe(true);
    expect(fake.tokenLeaks()).toEqual([]);
  });

  it('keeps a branch that has work the forge did not merge', async () => {
    const { agent, worktree } = await addAgent('worker');
    commitFiles(worktree.path, { 'a.txt': 'a\n' }, 'Add a');
    await openPullRequest(agent.id);
    fake.setChecks(git(worktree.path, 'rev-parse', 'HEAD'), 'passed');
    await core.api.mergePullRequest({ agentId: agent.id, method: 'merge' });
    commitFiles(worktree.path, { 'b.txt': 'b\n' }, 'Add b after the merge');
    expect(await core.api.archiveAgent({ agentId: agent.id })).toEqual({ agentId: agent.id, deletedBranch: null, keptBranch: worktree.branch });
    expect(git(repo, 'show', `${worktree.branch}:b.txt`)).toBe('b');
  });

  it('sends failed checks by itself when the project says so, once', async () => {
    await core.api.updateProjectSettings({ projectId: project.id, settings: { autoSendFailedChecks: true } });
    const { agent, worktree } = await addAgent('auto');
    commitFiles(worktree.path, { 'a.txt': 'a\n' }, 'Add a');
    await openPullRequest(agent.id);
    fake.setChecks(git(worktree.path, 'rev-parse', 'HEAD'), 'failed');
    await linkWhere(agent.id, 'the failure sent', (found) => found.checksSentFor !== null);
    const inbox = await core.api.listInbox({ agentId: agent.id, unreadOnly: false });
    expect(inbox.messages.filter((message) => message.body.includes(FakeGitHub.BUILD_FAILURE))).toHaveLength(1);
  });

  it("quotes the end of a huge job log, asking for its last 32 KB only, and keeps a check's summary to a line's worth: the work state stays small", async () => {
    // A log of 24 MB whose last lines follow one endless line, as a minified bundle or a progress bar leaves them.
    fake.jobLogFillerBytes = 24 * 1024 * 1024;
    // A whole test report as the summary, as long as GitHub allows.
    fake.failedBuildSummary = `cart.test.js failed\n${'| case | result |\n'.repeat(4_000)}`.slice(0, 65_535);
    const { agent, worktree } = await addAgent('flooded');
    commitFiles(worktree.path, { 'a.txt': 'a\n' }, 'Add a');
    await openPullRequest(agent.id);
    fake.setChecks(git(worktree.path, 'rev-parse', 'HEAD'), 'failed');
    const failed = await linkWhere(agent.id, 'the checks to fail', (found) => found.pullRequest?.checksState === 'failed');
    expect(failed.pullRequest?.checks.find((check) => check.name === 'build')?.summary).toMatch(/^1 test failed: cart\.test\.js failed\n\| case[^]{900,}…$/);
    expect(JSON.stringify(failed).length).toBeLessThan(10_000);
    const sent = await core.api.sendForgeFeedback({ agentId: agent.id, what: 'failed-checks' });
    expect(sent.body.length).toBeLessThanOrEqual(MAX_MESSAGE_CHARS);
    expect(sent.body).toContain(FakeGitHub.LOG_FAILURE);
    expect(sent.body).toMatch(/Log tail:\n {2}…x+\n/);
    expect(fake.requests.find((request) => request.url === '/logs/1002')).toMatchObject({ range: 'bytes=-32768', bytesServed: 32 * 1024 });
    const { messages } = await core.api.getWorkState({ projectId: project.id });
    expect(messages.find((message) => message.id === sent.id)?.body).toBe(sent.body);
  });

  it("keeps the host's GitHub tokens from the project's agents and tasks, unless the project shares them", async () => {
    await core.close();
    start({ GITHUB_TOKEN: 'ghp_second0123456789' });
    // Each look prints its own mark, so one never reads the answer of another.
    let looks = 0;
    const look = () => `look-${++looks}`;
    const echo = (mark: string) => `echo "${mark}=[\${GH_TOKEN:-}\${GITHUB_TOKEN:-}\${GH_ENTERPRISE_TOKEN:-}]"`;
    const taskSees = async () => {
      const mark = look();
      const task = await core.api.createTask({ projectId: project.id, command: echo(mark) });
      await waitFor(async () => (await core.api.getTask({ taskId: task.id })).state === 'succeeded', 'the task to end');
      return new RegExp(`${mark}=\\[(.*)\\]`).exec((await core.api.readTaskOutput({ taskId: task.id })).data)?.[1];
    };
    const agent = await core.api.createAgent({ projectId: project.id, name: 'shell', role: '', profileId: 'shell', workspace: { kind: 'project-folder' } });
    const agentSees = async () => {
      const mark = look();
      await core.api.restartAgent({ agentId: agent.id, resume: false });
      await waitFor(async () => (await core.api.getWorkState({ projectId: project.id })).sessions.find((found) => found.agentId === agent.id)?.state === 'ready', 'the shell at its prompt');
      await core.api.writeAgentInput({ agentId: agent.id, data: `${echo(mark)}\r` });
      const shown = await waitFor(async () => new RegExp(`^${mark}=\\[(.*)\\]$`, 'm').exec((await core.api.readAgentScreen({ agentId: agent.id })).text), 'the echo on screen');
      return shown[1];
    };

    expect(await taskSees()).toBe('');
    expect(await agentSees()).toBe('');
    await core.api.updateProjectSettings({ projectId: project.id, settings: { shareGitHubToken: true } });
    expect(await taskSees()).toBe(`${TOKEN}ghp_second0123456789`);
    expect(await agentSees()).toBe(`${TOKEN}ghp_second0123456789`);
    // The host itself still speaks to GitHub with its token.
    expect((await core.api.getForgeStatus({ projectId: project.id })).auth).toMatchObject({ login: 'octo-person', source: 'environment' });
  });

  it("keeps the host's GitHub tokens from what Drover's git runs in a worktree (a filter of the person's config); a push still has them, for a credential helper", async () => {
    const seen = (name: string) => path.join(dir, `${name}-saw`);
    const recorder = (name: string, then: string) => {
      const file = path.join(dir, `${name}.sh`);
      fs.writeFileSync(file, `#!/bin/sh\nprintf '%s\\n' "[\${GH_TOKEN:-}]" >> '${seen(name)}'\n${then}\n`, { mode: 0o755 });
      return file;
    };
    git(repo, 'config', 'filter.stamp.clean', recorder('filter', 'exec cat'));
    git(repo, 'config', 'remote.origin.receivepack', recorder('push', 'exec git receive-pack "$@"'));
    const { agent, worktree } = await addAgent('stamper');
    commitFiles(worktree.path, { '.gitattributes': 'src/*.js filter=stamp\n' }, 'Stamp the sources');
    writeFiles(worktree.path, { 'src/cart.js': 'export const total = () => 4;\n' });
    fs.rmSync(seen('filter'), { force: true });

    // The diff cleans the changed file through the filter, as a checkpoint's staging does.
    expect((await core.api.getWorktreeDiff({ agentId: agent.id })).files.map((file) => file.path)).toContain('src/cart.js');
    expect(fs.readFileSync(seen('filter'), 'utf8')).toMatch(/^(\[\]\n)+$/);
    await core.api.pushWorktreeBranch({ agentId: agent.id });
    expect(fs.readFileSync(seen('push'), 'utf8')).toBe(`[${TOKEN}]\n`);
  });

  it('answers every bad input plainly and leaves nothing half-done', async () => {
    const { agent, worktree } = await addAgent('careful');
    await expect(openPullRequest(agent.id)).rejects.toThrow('has no commits that main lacks');
    commitFiles(worktree.path, { 'a.txt': 'a\n' }, 'Add a');
    writeFiles(worktree.path, { 'b.txt': 'not committed\n' });
    await expect(openPullRequest(agent.id)).rejects.toThrow('1 file in careful\'s worktree is not committed');
    fs.rmSync(path.join(worktree.path, 'b.txt'));

    // The API down: no pull request, and nothing pushed.
    fake.down = true;
    await expect(openPullRequest(agent.id)).rejects.toThrow(`GitHub's API at ${fake.url} answered 503`);
    expect(branchesStartingWith(bare, 'drover/')).toEqual([]);
    fake.down = false;

    // A refused token, then an exhausted rate limit.
    fake.token = 'ghp_another';
    await expect(openPullRequest(agent.id)).rejects.toThrow('GitHub refused the token from GH_TOKEN / GITHUB_TOKEN');
    fake.token = TOKEN;
    fake.rateRemaining = 0;
    await expect(openPullRequest(agent.id)).rejects.toThrow("GitHub's rate limit for this token is spent until");
    fake.rateRemaining = 5000;
    expect(branchesStartingWith(bare, 'drover/')).toEqual([]);

    // A pull request someone else opened for the branch already.
    git(worktree.path, 'push', '--quiet', 'origin', worktree.branch);
    const response = await fetch(`${fake.url}/repos/acme/shop/pulls`, { method: 'POST', headers: { authorization: `token ${TOKEN}` }, body: JSON.stringify({ head: worktree.branch, base: 'main', title: 'By hand' }) });
    expect(response.status).toBe(201);
    await expect(openPullRequest(agent.id)).rejects.toThrow(`A pull request already exists for ${worktree.branch}: #1`);
    expect((await link(agent.id))?.pullRequest ?? null).toBeNull();

    // A branch behind its base, where the repository wants branches up to date.
    const second = await addAgent('behind');
    commitFiles(second.worktree.path, { 'c.txt': 'c\n' }, 'Add c');
    await openPullRequest(second.agent.id);
    fake.setChecks(git(second.worktree.path, 'rev-parse', 'HEAD'), 'passed');
    commitFiles(repo, { 'main.txt': 'moved on\n' }, 'Main moves on');
    git(repo, 'push', '--quiet', 'origin', 'main');
    fake.requireUpToDate = true;
    await expect(core.api.mergePullRequest({ agentId: second.agent.id, method: 'merge' })).rejects.toThrow(
      "#2's branch is behind main, and the repository requires branches to be up to date before they merge",
    );
    await expect(core.api.archiveAgent({ agentId: second.agent.id })).rejects.toThrow('#2 has not merged (it is open)');
    expect(fs.existsSync(second.worktree.path)).toBe(true);
    expect(fake.tokenLeaks()).toEqual([]);
  });

  it('names what is missing: a repository not on GitHub, no token', async () => {
    await core.close();
    start({ DROVER_GITHUB_API_URL: '', GH_TOKEN: '' });
    await core.api.updateProjectSettings({ projectId: project.id, settings: { forgeRepository: null } });
    git(repo, 'remote', 'set-url', 'origin', 'git@gitlab.com:acme/shop.git');
    const onGitLab = await core.api.getForgeStatus({ projectId: project.id });
    expect(onGitLab.problem).toMatch(/^origin \(git@gitlab\.com:acme\/shop\.git\) is on gitlab\.com that is not GitHub/);
    const { agent, worktree } = await addAgent('lost');
    commitFiles(worktree.path, { 'a.txt': 'a\n' }, 'Add a');
    await expect(openPullRequest(agent.id)).rejects.toThrow('is on gitlab.com that is not GitHub');

    git(repo, 'remote', 'set-url', 'origin', 'https://person:hunter2@github.com/acme/shop.git');
    const noToken = await core.api.getForgeStatus({ projectId: project.id });
    expect(noToken).toMatchObject({ repository: 'acme/shop', apiUrl: 'https://api.github.com', problem: null, auth: { source: null } });
    expect(noToken.detected.remoteUrl).toBe('https://github.com/acme/shop.git');
    expect(noToken.auth.problem).toContain('No GitHub token for https://api.github.com');
    expect(JSON.stringify(noToken)).not.toContain('hunter2');
  });
});

describe('GitHub tokens', () => {
  let dir: string;
  let fake: FakeGitHub;
  let core: Core;
  let project: Project;

  beforeEach(async () => {
    dir = makeTempDir();
    ({ fake } = await shopOnFakeGitHub(dir, ['repo', 'read:org']));
  });
  afterEach(async () => {
    await core.close();
    await fake.close();
    removeDir(dir);
  });

  const start = async (env: NodeJS.ProcessEnv) => {
    core = createCore({ dataDir: path.join(dir, 'data'), version: 'test', socketPath: '/unused', portBlocksDir: path.join(dir, 'ports'), env: { HOME: dir, ...env } });
    project = await core.api.addProject({ path: path.join(dir, 'shop') });
    await core.api.updateProjectSettings({ projectId: project.id, settings: { forgeRepository: 'acme/shop', forgeApiUrl: fake.url } });
  };

  it('keeps a pasted token for its API only, in a 0600 file, after GitHub took it', async () => {
    await start({ PATH: '/usr/bin:/bin', GH_TOKEN: TOKEN });
    // GH_TOKEN is for api.github.com (or DROVER_GITHUB_API_URL), never for another API URL.
    expect((await core.api.getForgeStatus({ projectId: project.id })).auth).toMatchObject({ source: null, problem: expect.stringContaining('No GitHub token') });
    await expect(core.api.setForgeToken({ projectId: project.id, token: 'ghp_wrong' })).rejects.toThrow('GitHub refused the token from the pasted token');
    const file = path.join(dir, 'data', 'forge-tokens.json');
    expect(fs.existsSync(file)).toBe(false);

    const status = await core.api.setForgeToken({ projectId: project.id, token: TOKEN });
    expect(status.auth).toEqual({ source: 'stored', login: 'octo-person', scopes: ['repo', 'read:org'], problem: null });
    expect(status.tokenStorage).toContain('mode 0600');
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toEqual({ [fake.url]: TOKEN });
    expect(status.rateLimit).toMatchObject({ limit: 5000 });

    await core.api.setForgeToken({ projectId: project.id, token: null });
    expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toEqual({});
  });

  it('takes the GitHub CLI’s token first, asking gh for the API’s host without the token in any argv', async () => {
    const bin = path.join(dir, 'bin');
    fs.mkdirSync(bin);
    const argvLog = path.join(dir, 'gh-argv');
    fs.writeFileSync(path.join(bin, 'gh'), `#!/bin/sh\necho "$@" >> '${argvLog}'\n[ "$GH_TOKEN" = "" ] || exit 3\necho ${TOKEN}\n`, { mode: 0o755 });
    await start({ PATH: `${bin}:/usr/bin:/bin`, GH_TOKEN: 'ghp_from_env_not_for_this_api' });
    expect((await core.api.getForgeStatus({ projectId: project.id })).auth).toMatchObject({ source: 'gh-cli', login: 'octo-person' });
    expect(fs.readFileSync(argvLog, 'utf8').trim()).toBe(`auth token --hostname ${new URL(fake.url).host}`);
  });
});

describe('issues in', () => {
  let dir: string;
  let fake: FakeGitHub;
  let core: Core;
  let project: Project;

  beforeEach(async () => {
    dir = makeTempDir();
    let repo: string;
    ({ repo, fake } = await shopOnFakeGitHub(dir));
    core = createCore({
      dataDir: path.join(dir, 'data'),
      version: 'test',
      socketPath: '/unused',
      portBlocksDir: path.join(dir, 'ports'),
      env: { PATH: '/usr/bin:/bin', HOME: dir, SHELL: '/bin/sh', DROVER_GITHUB_API_URL: fake.url, GH_TOKEN: TOKEN },
    });
    project = await core.api.addProject({ path: repo });
    await core.api.updateProjectSettings({ projectId: project.id, settings: { forgeRepository: 'acme/shop' } });
  });
  afterEach(async () => {
    await core.close();
    await fake.close();
    removeDir(dir);
  });

  it('lists, searches and filters the open issues, and starts an agent on one', async () => {
    const cart = fake.addIssue({ title: 'Cart drops the last item', body: 'Add three items: the cart shows two.', labels: ['bug'], assignees: ['octo-person'], author: 'customer' });
    fake.addIssue({ title: 'Dark mode', body: 'Please.', labels: ['feature'], assignees: [], author: 'designer' });
    const list = async (query: { search?: string; labels?: string[]; assignedToMe?: boolean }) =>
      (await core.api.listForgeIssues({ projectId: project.id, ...query })).issues.map((issue) => issue.title);
    expect(await list({})).toEqual(['Cart drops the last item', 'Dark mode']);
    expect(await list({ labels: ['bug'] })).toEqual(['Cart drops the last item']);
    expect(await list({ assignedToMe: true })).toEqual(['Cart drops the last item']);
    expect(await list({ search: 'dark' })).toEqual(['Dark mode']);
    expect((await core.api.listForgeIssues({ projectId: project.id })).labels).toEqual(['bug', 'feature']);

    const agent = await core.api.startAgentOnIssue({ projectId: project.id, issueNumber: cart, profileId: 'shell' });
    const state = await core.api.getWorkState({ projectId: project.id });
    expect(agent.name).toBe(`issue-${cart}`);
    expect(state.worktrees.find((worktree) => worktree.agentId === agent.id)?.branch).toBe(`drover/issue-${cart}-cart-drops-the-last-item`);
    expect(state.forgeLinks.find((found) => found.agentId === agent.id)?.issue).toEqual({ number: cart, title: 'Cart drops the last item', url: `https://github.invalid/acme/shop/issues/${cart}` });
    const [prompt] = (await core.api.listInbox({ agentId: agent.id, unreadOnly: false })).messages;
    expect(prompt?.body).toContain(`GitHub issue #${cart}: Cart drops the last item\nhttps://github.invalid/acme/shop/issues/${cart}\n\nAdd three items: the cart shows two.`);
    // Typed in through the wake once the shell is ready.
    await waitFor(async () => (await core.api.listInbox({ agentId: agent.id, unreadOnly: false })).messages[0]?.state === 'delivered', 'the issue typed into the agent');
    expect((await list({}))).toHaveLength(2);
    expect((await core.api.listForgeIssues({ projectId: project.id })).issues[0]?.agentId).toBe(agent.id);
    expect((await core.api.draftPullRequest({ agentId: agent.id })).body).toBe(`Fixes #${cart}`);

    await expect(core.api.startAgentOnIssue({ projectId: project.id, issueNumber: cart, profileId: 'shell' })).rejects.toThrow(`issue-${cart} already works on #${cart}`);
    await expect(core.api.startAgentOnIssue({ projectId: project.id, issueNumber: 99, profileId: 'shell' })).rejects.toThrow('GitHub found nothing');
    expect((await core.api.getWorkState({ projectId: project.id })).agents).toHaveLength(1);
  });
});
