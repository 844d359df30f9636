import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Project } from '../../shared/entities/projects';
import type { Worktree } from '../../shared/entities/worktrees';
import { runCli } from '../../test-support/droverProcess';
import { FakeGitHub } from '../../test-support/fakeGitHub';
import { addBareOrigin, commitFiles, git, makeRepo } from '../../test-support/gitRepo';
import { makeTempDir, removeDir } from '../../test-support/tempDir';
import { startHost, type DroverHost } from '../host/host';

const TOKEN = 'ghp_clitoken0123456789';

describe('drover pr and drover issue', () => {
  let dir: string;
  let dataDir: string;
  let repo: string;
  let fake: FakeGitHub;
  let host: DroverHost;
  let project: Project;

  const cli = (args: string[]) => runCli(['--data-dir', dataDir, ...args], { cwd: repo, env: { ...process.env, DROVER_SOCKET: '', DROVER_PROJECT_ID: '', DROVER_AGENT_ID: '', GH_TOKEN: '' } });

  beforeEach(async () => {
    dir = makeTempDir();
    dataDir = path.join(dir, 'data');
    repo = makeRepo(path.join(dir, 'shop'), { 'a.txt': 'a\n' });
    const bare = addBareOrigin(repo, path.join(dir, 'remote.git'));
    fake = new FakeGitHub({ repository: 'acme/shop', bareRepo: bare, token: TOKEN });
    await fake.listen();
    host = await startHost({
      dataDir,
      version: 'test',
      env: { PATH: '/usr/bin:/bin', HOME: dir, SHELL: '/bin/sh', DROVER_GITHUB_API_URL: fake.url, GH_TOKEN: TOKEN, DROVER_PORT_BLOCKS_DIR: path.join(dir, 'ports') },
    });
    project = await host.core.api.addProject({ path: repo });
    await host.core.api.updateProjectSettings({ projectId: project.id, settings: { forgeRepository: 'acme/shop' } });
  });
  afterEach(async () => {
    await host.close();
    await fake.close();
    removeDir(dir);
  });

  // Twelve runs of the real CLI, each a fresh Node: 19 s on a quiet machine, twice that under load.
  it('lists issues, starts an agent on one, opens and shows its pull request, refuses to merge a draft', async () => {
    const number = fake.addIssue({ title: 'Typo in the README', body: 'It says teh.', labels: ['docs'], assignees: [], author: 'reader' });
    const list = await cli(['issue', 'list', '--label', 'docs']);
    expect(list.code, list.stderr).toBe(0);
    expect(list.stdout).toMatch(new RegExp(`^#\\s+TITLE\\s+LABELS\\s+ASSIGNEES\\n#${number}\\s+Typo in the README\\s+docs`));
    expect(JSON.parse((await cli(['issue', 'list', '--json', '--search', 'nothing-like-it'])).stdout)).toEqual([]);

    const started = await cli(['issue', 'start', `#${number}`, '--profile', 'shell']);
    expect(started.code, started.stderr).toBe(0);
    expect(started.stdout).toBe(`Started issue-${number} on #${number} in its own worktree; the issue is typed in once it is ready.\n`);
    const worktree = (await host.core.api.getWorkState({ projectId: project.id })).worktrees[0] as Worktree;
    expect(worktree.branch).toBe(`drover/issue-${number}-typo-in-the-readme`);

    expect(await cli(['pr', 'create', `issue-${number}`])).toMatchObject({ code: 2, stderr: expect.stringContaining('has no commits that main lacks') });
    commitFiles(worktree.path, { 'README.md': 'the\n' }, 'Fix the typo');
    const created = await cli(['pr', 'create', `issue-${number}`, '--draft']);
    expect(created.code, created.stderr).toBe(0);
    expect(created.stdout).toBe('Opened #2: https://github.invalid/acme/shop/pull/2\n');
    expect(fake.requests.find((request) => request.method === 'POST')?.body).toMatchObject({ title: 'Fix the typo', body: `Fixes #${number}`, draft: true });

    const status = await cli(['pr', 'status', `issue-${number}`]);
    expect(status.code, status.stderr).toBe(0);
    expect(status.stdout).toMatch(/^#2 draft · checks running\nFix the typo\n/);
    expect(status.stdout).toMatch(/build\s+pending/);
    expect(await cli(['pr', 'merge', `issue-${number}`])).toMatchObject({ code: 2, stderr: expect.stringContaining('#2 is a draft: mark it ready for review on GitHub first.') });
    expect(await cli(['pr', 'merge', `issue-${number}`, '--method', 'octopus'])).toMatchObject({ code: 2, stderr: expect.stringContaining('--method is one of merge, squash, rebase') });

    const listed = await cli(['worktree', 'list']);
    expect(listed.stdout).toMatch(/#2 draft · checks running/);
    const json = JSON.parse((await cli(['pr', 'status', `issue-${number}`, '--json'])).stdout) as { pullRequest: { headSha: string } };
    expect(json.pullRequest.headSha).toBe(git(worktree.path, 'rev-parse', 'HEAD'));
    expect(await cli(['pr'])).toMatchObject({ code: 2, stderr: expect.stringContaining('drover pr needs a command: create, status, merge') });
    expect(await cli(['issue', 'start', 'seven'])).toMatchObject({ code: 2, stderr: expect.stringContaining('takes an issue number, not seven') });
  }, 90_000);

  it("pr status shows the forge's words with control characters escaped: a title or a check cannot write the clipboard", async () => {
    const agent = await host.core.api.createAgent({ projectId: project.id, name: 'fixer', role: '', profileId: 'shell', workspace: { kind: 'new-worktree' } });
    const worktree = (await host.core.api.getWorkState({ projectId: project.id })).worktrees[0] as Worktree;
    commitFiles(worktree.path, { 'b.txt': 'b\n' }, 'Add b');
    expect((await cli(['pr', 'create', 'fixer'])).code).toBe(0);
    const pull = fake.pullFor(worktree.branch);
    if (!pull) throw new Error('no pull request on the fake');
    pull.title = 'Add b\u001b]52;c;aGk=\u0007';
    fake.failedBuildSummary = 'see \u001b[2Jthe log';
    fake.setChecks(git(worktree.path, 'rev-parse', 'HEAD'), 'failed');
    const status = await cli(['pr', 'status', agent.name]);
    expect(status.code, status.stderr).toBe(0);
    // eslint-disable-next-line no-control-regex -- the very characters that must not reach the terminal
    expect(status.stdout).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
    expect(status.stdout).toContain('\n"Add b\\033]52;c;aGk=\\a"\n');
    expect(status.stdout).toContain('"1 test failed: see \\033[2Jthe log"');
  });
});
