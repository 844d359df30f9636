import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Agent } from '../../shared/entities/agents';
import type { Worktree } from '../../shared/entities/worktrees';
import { agentTerminalEnv } from '../../test-support/agentTerminalEnv';
import { cliProjectPerTest } from '../../test-support/cliProjectPerTest';
import { runCli } from '../../test-support/droverProcess';
import { commitFiles, git } from '../../test-support/gitRepo';
import { SHELL_AGENT_PROFILE, startShellAgent, typeCommand } from '../../test-support/shellAgent';
import { waitFor } from '../../test-support/waitFor';

describe('drover worktree', () => {
  const drover = cliProjectPerTest({ 'shared.txt': 'one\ntwo\nthree\n' });
  const { cli, addAgent } = drover;

  const twoConflictingAgents = async () => {
    const alpha = await addAgent('alpha');
    const beta = await addAgent('beta');
    commitFiles(alpha.path, { 'shared.txt': 'one\nalpha\nthree\n' }, 'alpha');
    commitFiles(beta.path, { 'shared.txt': 'one\nbeta\nthree\n' }, 'beta');
    return { alpha, beta };
  };

  it('lists worktrees and prints a diff', async () => {
    expect((await cli(['worktree', 'list'])).stdout).toBe('No agent of repo has a worktree of its own.\n');
    const { beta } = await twoConflictingAgents();
    fs.writeFileSync(path.join(beta.path, 'untracked.txt'), 'new\n');

    const list = await cli(['worktree', 'list']);
    expect(list.code, list.stderr).toBe(0);
    expect(list.stdout.split('\n')[0]).toMatch(/^AGENT\s+BRANCH\s+PARENT\s+AHEAD\s+BEHIND\s+UNCOMMITTED\s+STATE\s+PULL REQUEST\s+PATH$/);
    expect(list.stdout).toMatch(new RegExp(`beta\\s+${beta.branch}\\s+main\\s+1\\s+0\\s+1\\s+not started\\s+-\\s+${beta.path}`));
    const listed = JSON.parse((await cli(['worktree', 'list', '--json'])).stdout) as { agentName: string }[];
    expect(listed.map((entry) => entry.agentName)).toEqual(['alpha', 'beta']);

    const diff = await cli(['worktree', 'diff', 'BETA']);
    expect(diff.code, diff.stderr).toBe(0);
    expect(diff.stdout).toContain('diff --git a/shared.txt b/shared.txt');
    expect(diff.stdout).toContain('-two\n+beta\n');
    expect(diff.stdout).toContain('+++ b/untracked.txt\n@@ -0,0 +1,1 @@\n+new\n');
    expect(diff.stdout).not.toContain('alpha');
    expect((await cli(['worktree', 'diff', 'beta', '--stat'])).stdout).toMatch(/shared\.txt\s+\+1\s+-1\s+committed\n[\s\S]*2 files changed, \+2 -1, 1 commit on drover\/beta-\w+ since main/);
    expect(await cli(['worktree'])).toMatchObject({ code: 2, stderr: expect.stringContaining('drover worktree needs a command: list, diff, merge') });
    const untouched = await addAgent('gamma');
    expect((await cli(['worktree', 'diff', 'gamma', '--stat'])).stdout).toBe(`0 files changed, +0 -0, 0 commits on ${untouched.branch} since main\n`);
  });

  it('list shows the agent’s state: ready at its prompt, busy while its command runs', async () => {
    await drover.host.core.api.saveAgentProfile({ profile: SHELL_AGENT_PROFILE });
    const agent = await drover.host.core.api.createAgent({ projectId: drover.project.id, name: 'worker', role: '', profileId: SHELL_AGENT_PROFILE.id, workspace: { kind: 'new-worktree' } });
    await startShellAgent(drover.host.core, agent);
    const row = async () => (await cli(['worktree', 'list'])).stdout.split('\n').find((line) => line.startsWith('worker '));
    expect(await row()).toMatch(/\s0\s+0\s+0\s+ready\s+-\s/);
    await typeCommand(drover.host.core, agent, 'sleep 30');
    await waitFor(async () => (await drover.host.core.api.getWorkState({ projectId: drover.project.id })).sessions[0]?.state === 'busy', 'the agent busy');
    expect(await row()).toMatch(/\s0\s+0\s+0\s+busy\s+-\s/);
  });

  it('quotes agent names and file names with control characters in its tables, as git does', async () => {
    const worktree = await addAgent('evil\u001b[2J');
    commitFiles(worktree.path, { 'a\u001b]52;c;aGk=\u0007.txt': 'x\n' }, 'hostile name');
    // eslint-disable-next-line no-control-regex -- the very characters that must not reach the terminal
    const controls = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;
    const list = await cli(['worktree', 'list']);
    expect(list.code, list.stderr).toBe(0);
    expect(list.stdout).not.toMatch(controls);
    expect(list.stdout).toMatch(/^"evil\\033\[2J"\s+drover\//m);
    const stat = await cli(['worktree', 'diff', worktree.agentId, '--stat']);
    expect(stat.code, stat.stderr).toBe(0);
    expect(stat.stdout).not.toMatch(controls);
    expect(stat.stdout).toContain('"a\\033]52;c;aGk=\\a.txt"');
  });

  it('merges one branch and refuses the conflicting one with exit code 2, handing it back', async () => {
    const { alpha, beta } = await twoConflictingAgents();
    const merged = await cli(['worktree', 'merge', 'alpha']);
    expect(merged.code, merged.stderr).toBe(0);
    expect(merged.stdout).toBe(`Merged ${alpha.branch} into main (rebase, 1 commit): ${git(drover.repo, 'rev-parse', 'main')}\n`);
    expect(fs.readFileSync(path.join(drover.repo, 'shared.txt'), 'utf8')).toBe('one\nalpha\nthree\n');

    const refused = await cli(['worktree', 'merge', 'beta', '--squash', '--hand-back']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/handed the conflicts back to the agent \(message m-\w+\)/);
    expect(refused.stderr).toMatch(/Merging drover\/beta-\w+ into main conflicts in 1 file: shared\.txt/);
    expect(fs.readFileSync(path.join(drover.repo, 'shared.txt'), 'utf8')).toBe('one\nalpha\nthree\n');
    const inbox = await drover.host.core.api.listInbox({ agentId: beta.agentId, unreadOnly: false });
    expect(inbox.messages[0]?.body).toMatch(/Please rebase on main and resolve them/);

    expect(await cli(['worktree', 'merge', 'gamma'])).toMatchObject({ code: 2, stderr: expect.stringContaining('No agent gamma in repo (agents: alpha, beta)') });
  });

  it('merge --check says what a merge would do, Drover’s commit of a removed agent’s work included, and changes nothing', async () => {
    const alpha = await addAgent('alpha');
    commitFiles(alpha.path, { 'a.txt': 'a\n' }, 'add a');
    fs.writeFileSync(path.join(alpha.path, 'wip.txt'), 'not committed\n');
    const { keptBranch } = await drover.host.core.api.removeAgent({ agentId: alpha.agentId, keepBranch: true });
    if (!keptBranch) throw new Error('no branch kept');
    // Another agent takes the kept branch up; main moves on meanwhile.
    const heir = await drover.host.core.api.createAgent({ projectId: drover.project.id, name: 'heir', role: '', profileId: 'shell', workspace: { kind: 'existing-branch', branch: keptBranch, parent: 'main' } });
    commitFiles(drover.repo, { 'other.txt': 'x\n' }, 'main moves on');
    const main = git(drover.repo, 'rev-parse', 'main');

    const check = await cli(['worktree', 'merge', 'heir', '--check']);
    expect(check.code, check.stderr).toBe(0);
    const lines = check.stdout.split('\n');
    expect(lines[0]).toBe(`Merging would replay the 2 commits of ${keptBranch} on the 1 commit main gained since, then fast-forward main to them:`);
    expect(lines[1]).toMatch(/^ {2}[0-9a-f]{10} add a$/);
    expect(lines[2]).toMatch(/^ {2}[0-9a-f]{10} Uncommitted work of alpha, saved by Drover when the agent was removed {3}\(Drover committed this: uncommitted work of a removed agent\)$/);
    expect(lines.slice(3)).toEqual(['Nothing was changed (--check).', '']);
    expect(git(drover.repo, 'rev-parse', 'main')).toBe(main);
    expect(JSON.parse((await cli(['worktree', 'merge', 'heir', '--check', '--json'])).stdout)).toMatchObject({ ahead: 2, behind: 1, problem: null, commits: [{ subject: expect.stringContaining('saved by Drover') }, { subject: 'add a' }] });

    const heirWorktree = (await drover.host.core.api.getWorkState({ projectId: drover.project.id })).worktrees.find((worktree) => worktree.agentId === heir.id) as Worktree;
    fs.writeFileSync(path.join(heirWorktree.path, 'more.txt'), 'more\n');
    const refused = await cli(['worktree', 'merge', 'heir', '--check', '--squash']);
    expect(refused.code).toBe(2);
    expect(refused.stdout).toMatch(/^Merging would add one commit to main holding the 2 commits of /);
    expect(refused.stdout).toContain("It would not merge now: 1 file in heir's worktree is not committed");
    expect(git(drover.repo, 'rev-parse', 'main')).toBe(main);
  });

  it('runs `drover task run` of an agent standing in its worktree there', async () => {
    const worker = await addAgent('worker');
    await drover.host.core.api.startAgent({ agentId: worker.agentId, resume: false });
    const agent = (await drover.host.core.api.getWorkState({ projectId: drover.project.id })).agents.find((a) => a.id === worker.agentId) as Agent;
    const run = await runCli(['task', 'run', '--', 'pwd'], { cwd: worker.path, env: await agentTerminalEnv(drover.host, agent) });
    expect(run.code, run.stderr).toBe(0);
    const task = await waitFor(async () => {
      const found = await drover.host.core.api.getTask({ taskId: run.stdout.trim() });
      return found.state === 'succeeded' && found;
    }, 'the task to end');
    expect(task.cwd).toBe(worker.path);
  });
  it('counts one changed file as one file', async () => {
    const solo = await addAgent('solo');
    commitFiles(solo.path, { 'only.txt': 'one\n' }, 'one file');
    expect((await cli(['worktree', 'diff', 'solo', '--stat'])).stdout).toMatch(/\n1 file changed, \+1 -0, 1 commit on drover\/solo-\w+ since main\n$/);
  });
});
