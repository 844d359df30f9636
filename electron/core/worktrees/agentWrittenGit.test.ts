import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Agent } from '../../../shared/entities/agents';
import type { Project } from '../../../shared/entities/projects';
import type { Worktree } from '../../../shared/entities/worktrees';
import { addBareOrigin, commitFiles, git, makeRepo, writeFiles } from '../../../test-support/gitRepo';
import { runTurn, SHELL_AGENT_PROFILE, startShellAgent, turnsOf, typeCommand } from '../../../test-support/shellAgent';
import { makeTempDir, removeDir } from '../../../test-support/tempDir';
import { waitFor } from '../../../test-support/waitFor';
import type { Client } from '../api';
import { createCore, type Core } from '../compose';

/** The hooks Drover's own commands (commit, merge, rebase, push, update-ref, checkout) could run. */
const HOOKS = ['pre-commit', 'post-commit', 'pre-push', 'post-checkout', 'post-merge', 'post-rewrite', 'pre-rebase', 'reference-transaction', 'post-index-change'];

/** Hook scripts in `folder` that leave a file named after themselves in `ran` when run. */
function writeMarkingHooks(folder: string, ran: string): void {
  fs.mkdirSync(folder, { recursive: true });
  for (const hook of HOOKS) fs.writeFileSync(path.join(folder, hook), `#!/bin/sh\ntouch '${ran}/hook-${hook}'\n`, { mode: 0o755 });
}

/**
 * What an agent that can only write files in its worktree plants there: a git dir of its own (its
 * objects borrowed from the repository's, its HEAD on the agent's branch) whose config runs
 * commands from fsmonitor, hooks and ssh, and a `.git` file naming it.
 */
function plantGitDir(repo: string, tree: string, branch: string, ran: string): void {
  const evil = path.join(tree, '.evil');
  writeFiles(evil, {
    HEAD: `ref: refs/heads/${branch}\n`,
    [`refs/heads/${branch}`]: `${git(tree, 'rev-parse', 'HEAD')}\n`,
    'objects/info/alternates': `${path.join(repo, '.git', 'objects')}\n`,
    config: [
      '[core]',
      '\trepositoryformatversion = 0',
      '\tbare = false',
      `\tfsmonitor = "touch '${ran}/fsmonitor'; false"`,
      `\thooksPath = ${path.join(evil, 'hooks')}`,
      `\tsshCommand = "touch '${ran}/ssh'; false"`,
      '[remote "origin"]',
      '\turl = ssh://example.invalid/repo.git',
      '',
    ].join('\n'),
  });
  writeMarkingHooks(path.join(evil, 'hooks'), ran);
  fs.writeFileSync(path.join(tree, '.git'), 'gitdir: .evil\n');
}

/**
 * What the person's own git config may say that makes git recurse into submodules: check out,
 * diff, summarize and push them, each by running git inside the submodule's folder.
 */
const RECURSING_INTO_SUBMODULES = {
  'submodule.recurse': 'true',
  'diff.submodule': 'diff',
  'status.submoduleSummary': 'true',
  'push.recurseSubmodules': 'on-demand',
  'fetch.recurseSubmodules': 'true',
};

const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

describe("an agent's worktree cannot make Drover's git run its commands (real git)", () => {
  let dir: string;
  let repo: string;
  let ran: string;
  let core: Core;
  let project: Project;
  let logged: string[];
  const client: Client = { signal: new AbortController().signal, caller: { kind: 'person' }, identifyAs: () => {}, sendTaskOutput: () => {}, sendTerminal: () => {} };
  const commandsRun = () => fs.readdirSync(ran);

  const boot = () => {
    core = createCore({ dataDir: path.join(dir, 'data'), version: 'test', socketPath: '/unused', portBlocksDir: path.join(dir, 'ports'), log: (line) => logged.push(line) });
  };
  const addAgent = async (name: string): Promise<{ agent: Agent; worktree: Worktree }> => {
    const agent = await core.api.createAgent({ projectId: project.id, name, role: '', profileId: 'sh', workspace: { kind: 'new-worktree' } });
    const worktree = (await core.api.getWorkState({ projectId: project.id })).worktrees.find((candidate) => candidate.agentId === agent.id) as Worktree;
    return { agent, worktree };
  };

  beforeEach(async () => {
    dir = makeTempDir();
    ran = path.join(dir, 'ran');
    fs.mkdirSync(ran);
    logged = [];
    repo = makeRepo(path.join(dir, 'repo'), { 'notes.txt': 'one\n' });
    addBareOrigin(repo, path.join(dir, 'origin.git'));
    boot();
    project = await core.api.addProject({ path: repo });
    await core.api.saveAgentProfile({ profile: SHELL_AGENT_PROFILE });
  });
  afterEach(async () => {
    await core.close();
    removeDir(dir);
  });

  it('refuses, saying so, every git it runs in a worktree whose .git was pointed at a planted git dir, and runs none of its commands', async () => {
    const { agent, worktree } = await addAgent('planter');
    await startShellAgent(core, agent);
    commitFiles(worktree.path, { 'feature.txt': 'work\n' }, 'the work');
    commitFiles(repo, { 'later.txt': 'main moves on\n' }, 'main moves on');
    plantGitDir(repo, worktree.path, worktree.branch, ran);
    const agentId = agent.id;
    const redirect = new RegExp(
      `${escaped(worktree.path)}/\\.git no longer points to the repository's record of this worktree \\(.*\\): its \\.git file names ${escaped(worktree.path)}/\\.evil\\. Drover runs no git there`,
    );

    // The turn-end checkpoint.
    await typeCommand(core, agent, 'echo more > more.txt');
    const checkpointRefused = () => logged.find((line) => line.startsWith(`could not take a checkpoint of agent ${agentId}`));
    await waitFor(async () => checkpointRefused() ?? (await turnsOf(core, agent)).length > 1, 'the checkpoint to be taken or refused');
    expect(commandsRun()).toEqual([]);
    expect(checkpointRefused()).toMatch(redirect);
    // The diff, its watcher, the status, the comparison of turns, a restore, a merge, a push, a removal.
    await expect(core.api.getWorktreeDiff({ agentId })).rejects.toThrow(redirect);
    await expect(core.api.watchWorktree({ agentId }, client)).rejects.toThrow(redirect);
    await expect(core.api.getWorktreeStatus({ agentId })).rejects.toThrow(redirect);
    await expect(core.api.getTurnDiff({ agentId, from: 0, to: null })).rejects.toThrow(redirect);
    await expect(core.api.restoreTurn({ agentId, n: 0 })).rejects.toThrow(redirect);
    await expect(core.api.checkWorktreeMerge({ agentId })).rejects.toThrow(redirect);
    await expect(core.api.mergeWorktree({ agentId, strategy: 'rebase' })).rejects.toThrow(redirect);
    await expect(core.api.pushWorktreeBranch({ agentId })).rejects.toThrow(redirect);
    await expect(core.api.removeAgent({ agentId })).rejects.toThrow(redirect);
    // The boot reconciliation leaves it as it is, and says so.
    await core.close();
    boot();
    expect(logged.some((line) => line.startsWith(`left ${worktree.path} as it is: `) && redirect.test(line))).toBe(true);
    expect(commandsRun()).toEqual([]);

    // Put back as git records it, the worktree works again; the planted git dir is only files in it.
    git(repo, 'worktree', 'repair', worktree.path);
    expect((await core.api.getWorktreeStatus({ agentId })).uncommittedFiles).toBeGreaterThan(0);
    await core.api.removeAgent({ agentId });
    expect(git(repo, 'show', `${worktree.branch}:.evil/config`)).toContain('fsmonitor');
    expect(commandsRun()).toEqual([]);
  });

  it("reaches the parent branch's checkout in another agent's worktree the same way: a merge into it or a worktree from it is refused while that .git is redirected", async () => {
    const parent = await addAgent('parent');
    const child = (await core.api.createAgent({ projectId: project.id, name: 'child', role: '', profileId: 'sh', workspace: { kind: 'new-worktree', base: parent.worktree.branch } })).id;
    const childTree = (await core.api.getWorkState({ projectId: project.id })).worktrees.find((candidate) => candidate.agentId === child) as Worktree;
    commitFiles(childTree.path, { 'child.txt': 'work\n' }, "the child's work");
    plantGitDir(repo, parent.worktree.path, parent.worktree.branch, ran);
    const redirect = new RegExp(`${escaped(parent.worktree.path)}/\\.git no longer points to the repository's record of this worktree`);
    await expect(core.api.checkWorktreeMerge({ agentId: child })).rejects.toThrow(redirect);
    await expect(core.api.mergeWorktree({ agentId: child, strategy: 'rebase' })).rejects.toThrow(redirect);
    await expect(core.api.createAgent({ projectId: project.id, name: 'grandchild', role: '', profileId: 'sh', workspace: { kind: 'new-worktree', base: parent.worktree.branch } })).rejects.toThrow(redirect);
    expect(commandsRun()).toEqual([]);

    git(repo, 'worktree', 'repair', parent.worktree.path);
    expect(await core.api.mergeWorktree({ agentId: child, strategy: 'rebase' })).toMatchObject({ parentBranch: parent.worktree.branch, commits: 1 });
    expect(fs.readFileSync(path.join(parent.worktree.path, 'child.txt'), 'utf8')).toBe('work\n');
    expect(commandsRun()).toEqual([]);
  });

  it('still removes such an agent when its work is to be discarded, running nothing of the planted git dir', async () => {
    const { agent, worktree } = await addAgent('discarded');
    plantGitDir(repo, worktree.path, worktree.branch, ran);
    await core.api.removeAgent({ agentId: agent.id, discardWork: true });
    expect(fs.existsSync(worktree.path)).toBe(false);
    expect(git(repo, 'worktree', 'list', '--porcelain').split('\n').filter((line) => line.startsWith('worktree '))).toEqual([`worktree ${repo}`]);
    expect(git(repo, 'for-each-ref', '--format=%(refname:short)', 'refs/heads')).toBe('main');
    expect(commandsRun()).toEqual([]);
  });

  it('runs no hook an agent writes where the repository keeps its hooks in the worktree (core.hooksPath relative, as husky sets it)', async () => {
    commitFiles(repo, { '.gitignore': '.husky/\n' }, 'hooks stay out of the commits');
    git(repo, 'config', 'core.hooksPath', '.husky');
    const { agent, worktree } = await addAgent('hooked');
    await startShellAgent(core, agent);
    commitFiles(worktree.path, { 'feature.txt': 'work\n' }, 'the work');
    commitFiles(repo, { 'later.txt': 'main moves on\n' }, 'main moves on');
    // From here on only Drover's git runs, in the worktree and in main's checkout.
    writeMarkingHooks(path.join(worktree.path, '.husky'), ran);
    writeMarkingHooks(path.join(repo, '.husky'), ran);

    await runTurn(core, agent, 'echo more > more.txt', 1);
    expect((await core.api.getWorktreeDiff({ agentId: agent.id })).files.map((file) => file.path)).toEqual(['feature.txt', 'more.txt']);
    await core.api.restoreTurn({ agentId: agent.id, n: 0 });
    await core.api.restoreTurn({ agentId: agent.id, n: 2 });
    fs.rmSync(path.join(worktree.path, 'more.txt'));
    // Rebased onto main, then main fast-forwarded in its checkout.
    await core.api.mergeWorktree({ agentId: agent.id, strategy: 'rebase' });
    await core.api.pushWorktreeBranch({ agentId: agent.id });
    writeFiles(worktree.path, { 'unsaved.txt': 'committed on removal\n' });
    await core.api.removeAgent({ agentId: agent.id });
    expect(git(repo, 'log', '-1', '--format=%s', worktree.branch)).toMatch(/Uncommitted work of hooked/);
    expect(commandsRun()).toEqual([]);
  });

  it("pushes an agent's branch through the repository's own pre-push hook (as Git LFS installs it), never one written in the worktree", async () => {
    const hooks = path.join(repo, '.git', 'hooks');
    fs.writeFileSync(path.join(hooks, 'pre-push'), `#!/bin/sh\necho "$1 $(cat)" > '${ran}/repository-pre-push'\n`, { mode: 0o755 });
    commitFiles(repo, { '.gitignore': '.husky/\n' }, 'hooks stay out of the commits');
    git(repo, 'config', 'core.hooksPath', '.husky');
    const { agent, worktree } = await addAgent('pusher');
    const tip = commitFiles(worktree.path, { 'feature.txt': 'work\n' }, 'the work');
    writeMarkingHooks(path.join(worktree.path, '.husky'), ran);

    await core.api.pushWorktreeBranch({ agentId: agent.id });
    expect(commandsRun()).toEqual(['repository-pre-push']);
    // The hook is told the remote and what goes, as git tells it.
    expect(fs.readFileSync(path.join(ran, 'repository-pre-push'), 'utf8')).toContain(`origin refs/heads/${worktree.branch} ${tip} refs/heads/${worktree.branch}`);
    expect(git(path.join(dir, 'origin.git'), 'rev-parse', worktree.branch)).toBe(tip);
  });

  it("never asks git inside a submodule's folder whether its files changed: the agent writes that git's config", async () => {
    const lib = makeRepo(path.join(dir, 'lib'), { 'readme.md': 'the library\n' });
    git(repo, '-c', 'protocol.file.allow=always', 'submodule', 'add', '--quiet', lib, 'lib');
    git(repo, 'commit', '--quiet', '-m', 'the library as a submodule');
    const { agent, worktree } = await addAgent('nester');
    /** A checkout of the library where the submodule's folder is, and another nowhere git records, each with a clean filter that leaves a mark. */
    const plantRepository = (folder: string) => {
      git(dir, 'clone', '--quiet', lib, folder);
      fs.writeFileSync(path.join(folder, '.git', 'info', 'attributes'), '* filter=mark\n');
      git(folder, 'config', 'filter.mark.clean', `sh -c "touch '${ran}/filter'; cat"`);
      // Same bytes, another time: git must read the file (through the filter) to tell whether it changed.
      fs.utimesSync(path.join(folder, 'readme.md'), new Date(2001, 0, 1), new Date(2001, 0, 1));
    };
    plantRepository(path.join(worktree.path, 'lib'));
    plantRepository(path.join(worktree.path, 'extra'));
    await startShellAgent(core, agent);
    await runTurn(core, agent, 'echo more > more.txt', 1);
    expect((await core.api.getWorktreeStatus({ agentId: agent.id })).uncommittedFiles).toBe(2);
    expect((await core.api.getWorktreeDiff({ agentId: agent.id })).files.map((file) => file.path)).toEqual(['more.txt']);
    await core.api.getTurnDiff({ agentId: agent.id, from: 1, to: null });
    await core.api.restoreTurn({ agentId: agent.id, n: 0 });
    await core.api.restoreTurn({ agentId: agent.id, n: 2 });
    expect(fs.readFileSync(path.join(worktree.path, 'more.txt'), 'utf8')).toBe('more\n');
    await core.api.checkWorktreeMerge({ agentId: agent.id });
    expect(commandsRun()).toEqual([]);
  });

  it("asks no git inside a submodule's folder when the person's git config recurses into submodules (diff, push, merge, restore)", async () => {
    const lib = makeRepo(path.join(dir, 'lib'), { 'readme.md': 'the library\n' });
    git(repo, '-c', 'protocol.file.allow=always', 'submodule', 'add', '--quiet', lib, 'lib');
    git(repo, 'commit', '--quiet', '-m', 'the library as a submodule');
    for (const [key, value] of Object.entries(RECURSING_INTO_SUBMODULES)) git(repo, 'config', key, value);
    const { agent, worktree } = await addAgent('recurser');
    await startShellAgent(core, agent);
    // The agent checks the library out with a git dir of its own, moves it on and commits that; main moves on too.
    const libTree = path.join(worktree.path, 'lib');
    git(dir, 'clone', '--quiet', lib, libTree);
    commitFiles(libTree, { 'readme.md': 'changed\n' }, 'the library moves on');
    git(libTree, 'branch', worktree.branch);
    git(worktree.path, 'commit', '--quiet', '-m', 'the library moved on', '--', 'lib');
    commitFiles(repo, { 'later.txt': 'main moves on\n' }, 'main moves on');
    // Then it plants config there that runs commands whenever a git works in that folder (a push to its origin runs receivepack here).
    fs.writeFileSync(path.join(libTree, '.git', 'info', 'attributes'), '* filter=mark\n');
    git(libTree, 'config', 'filter.mark.clean', `sh -c "touch '${ran}/clean'; cat"`);
    git(libTree, 'config', 'filter.mark.smudge', `sh -c "touch '${ran}/smudge'; cat"`);
    git(libTree, 'config', 'diff.external', `sh -c "touch '${ran}/diff'"`);
    git(libTree, 'config', 'remote.origin.receivepack', `touch '${ran}/push'; false`);

    await runTurn(core, agent, 'echo more > more.txt', 1);
    expect((await core.api.getWorktreeDiff({ agentId: agent.id })).files.map((file) => file.path)).toEqual(['lib', 'more.txt']);
    expect((await core.api.getTurnDiff({ agentId: agent.id, from: 0, to: null })).files.map((file) => file.path)).toEqual(['lib', 'more.txt']);
    expect((await core.api.getWorktreeStatus({ agentId: agent.id })).uncommittedFiles).toBe(1);
    await core.api.pushWorktreeBranch({ agentId: agent.id });
    fs.rmSync(path.join(worktree.path, 'more.txt'));
    await core.api.mergeWorktree({ agentId: agent.id, strategy: 'rebase' });
    expect(git(repo, 'rev-parse', 'main:lib')).toBe(git(libTree, 'rev-parse', 'HEAD'));
    await expect(core.api.restoreTurn({ agentId: agent.id, n: 0 })).rejects.toThrow(/^Restoring would move 1 submodule checked out in the worktree \(lib to [0-9a-f]{12}\)/);
    expect(commandsRun()).toEqual([]);
  });
});
