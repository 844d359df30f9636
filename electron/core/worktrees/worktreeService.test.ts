import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Agent } from '../../../shared/entities/agents';
import type { Project } from '../../../shared/entities/projects';
import type { Task } from '../../../shared/entities/tasks';
import type { AgentWorkspaceRequest, Worktree } from '../../../shared/entities/worktrees';
import type { DroverEvent } from '../../../shared/events';
import { branchesStartingWith, commitFiles, git, makeRepo, writeFiles } from '../../../test-support/gitRepo';
import { makeTempDir, removeDir } from '../../../test-support/tempDir';
import { waitFor } from '../../../test-support/waitFor';
import type { Client } from '../api';
import { createCore, type Core } from '../compose';

describe('Worktrees (real git)', () => {
  let dir: string;
  let repo: string;
  let core: Core;
  let project: Project;
  let events: DroverEvent[];

  const start = (env?: NodeJS.ProcessEnv) => {
    core = createCore({
      dataDir: path.join(dir, 'data'),
      version: 'test',
      socketPath: '/unused',
      portBlocksDir: path.join(dir, 'ports'),
      ...(env ? { env } : {}),
    });
    core.events.onEvent((event) => events.push(event));
  };
  const addAgent = (name: string, workspace: AgentWorkspaceRequest = { kind: 'new-worktree' }) =>
    core.api.createAgent({ projectId: project.id, name, role: '', profileId: 'shell', workspace });
  const worktreeOf = async (agent: Agent): Promise<Worktree> => {
    const found = (await core.api.getWorkState({ projectId: project.id })).worktrees.find((worktree) => worktree.agentId === agent.id);
    if (!found) throw new Error(`${agent.name} has no worktree`);
    return found;
  };
  const ended = (taskId: string) =>
    waitFor(async () => {
      const task = await core.api.getTask({ taskId });
      return ['succeeded', 'failed', 'cancelled', 'interrupted'].includes(task.state) && task;
    }, `task ${taskId} to end`);
  /** Everything Drover could have left behind in the repository and the data dir. */
  const leftovers = () => ({
    worktrees: git(repo, 'worktree', 'list', '--porcelain').split('\n').filter((line) => line.startsWith('worktree ')),
    branches: git(repo, 'for-each-ref', '--format=%(refname:short)', 'refs/heads'),
    folders: fs.existsSync(path.join(dir, 'data', 'projects', project.id, 'worktrees')) ? fs.readdirSync(path.join(dir, 'data', 'projects', project.id, 'worktrees')) : [],
  });

  beforeEach(async () => {
    dir = makeTempDir();
    events = [];
    repo = makeRepo(path.join(dir, 'repo'), {
      'shared.txt': 'line one\nline two\nline three\n',
      'src/app.ts': 'export const answer = 41;\n',
      '.gitignore': '.env\nsecrets/\n*.log\nnode_modules/\n',
      '.worktreeinclude': '.env\nsecrets/\n',
    });
    writeFiles(repo, { '.env': 'API_KEY=local\n', 'secrets/key.pem': 'KEY\n', 'debug.log': 'noise\n', 'node_modules/pkg/index.js': 'x\n' });
    start();
    project = await core.api.addProject({ path: repo });
  });
  afterEach(async () => {
    await core.close();
    removeDir(dir);
  });

  it('gives a new agent its own worktree on a new branch outside the repository, ready to work in', async () => {
    const agent = await addAgent('Back End');
    const worktree = await worktreeOf(agent);
    expect(worktree).toMatchObject({
      state: 'ready',
      parentBranch: 'main',
      baseCommit: git(repo, 'rev-parse', 'main'),
      ownsFolder: true,
      ownsBranch: true,
      folder: worktree.path,
    });
    expect(worktree.branch).toMatch(/^drover\/back-end-[a-z0-9]{4}$/);
    expect(path.dirname(worktree.path)).toBe(path.join(dir, 'data', 'projects', project.id, 'worktrees'));
    expect(git(worktree.path, 'symbolic-ref', '--short', 'HEAD')).toBe(worktree.branch);
    // --no-track: the new branch follows nothing.
    expect(() => git(repo, 'config', `branch.${worktree.branch}.merge`)).toThrow();
    // What .worktreeinclude names and git ignores is copied; other ignored files are not.
    expect(fs.readFileSync(path.join(worktree.path, '.env'), 'utf8')).toBe('API_KEY=local\n');
    expect(fs.readFileSync(path.join(worktree.path, 'secrets', 'key.pem'), 'utf8')).toBe('KEY\n');
    expect(fs.existsSync(path.join(worktree.path, 'debug.log'))).toBe(false);
    expect(fs.existsSync(path.join(worktree.path, 'node_modules'))).toBe(false);
    expect(worktree.portBase).toBeGreaterThanOrEqual(20_000);
    expect(events.some((event) => event.name === 'agentWorktreeChanged' && event.worktree?.state === 'ready')).toBe(true);

    // The agent's tasks run in its worktree by default, with its ports; a relative cwd is taken from there.
    const task = await core.api.createTask({ projectId: project.id, command: 'pwd; echo "port=$DROVER_PORT branch=$DROVER_BRANCH"', ownerAgentId: agent.id });
    expect(task.cwd).toBe(worktree.path);
    const log = fs.readFileSync((await ended(task.id)).logPath, 'utf8');
    expect(log).toContain(worktree.path);
    expect(log).toContain(`port=${worktree.portBase} branch=${worktree.branch}`);
    expect((await core.api.createTask({ projectId: project.id, command: 'true', ownerAgentId: agent.id, cwd: 'src' })).cwd).toBe(path.join(worktree.path, 'src'));
    // A task of no agent still runs in the project, and no task runs outside both.
    expect((await core.api.createTask({ projectId: project.id, command: 'true' })).cwd).toBe(repo);
    await expect(core.api.createTask({ projectId: project.id, command: 'true', cwd: dir })).rejects.toThrow(/outside the project .* and its agents' worktrees/);

    // A second agent gets its own branch, folder and ports.
    const other = await worktreeOf(await addAgent('Back End 2'));
    expect(other.branch).not.toBe(worktree.branch);
    expect(other.path).not.toBe(worktree.path);
    expect(other.portBase).not.toBe(worktree.portBase);
  });

  it("runs the project's setup command as the agent's task in its new worktree, and tells the agent when it ends", async () => {
    await core.api.updateProjectSettings({ projectId: project.id, settings: { worktreeSetupCommand: 'echo installed > setup-ran.txt' } });
    const agent = await addAgent('builder');
    const worktree = await worktreeOf(agent);
    const setup = (await core.api.listTasks({ projectId: project.id })).tasks.find((task: Task) => task.label === 'worktree setup');
    expect(setup).toMatchObject({ ownerAgentId: agent.id, cwd: worktree.path, command: 'echo installed > setup-ran.txt' });
    expect((await ended(setup?.id ?? '')).state).toBe('succeeded');
    expect(fs.readFileSync(path.join(worktree.path, 'setup-ran.txt'), 'utf8')).toBe('installed\n');
    const inbox = await waitFor(async () => (await core.api.listInbox({ agentId: agent.id, unreadOnly: false })).messages.find((message) => message.taskId === setup?.id), 'the setup result');
    expect(inbox.kind).toBe('task-result');
  });

  it('refuses bad requests with a clear message and leaves nothing half-made', async () => {
    const before = leftovers();
    const plain = path.join(dir, 'plain');
    fs.mkdirSync(plain);
    const plainProject = await core.api.addProject({ path: plain });
    await expect(core.api.createAgent({ projectId: plainProject.id, name: 'x', role: '', profileId: 'shell', workspace: { kind: 'new-worktree' } })).rejects.toThrow(
      /is not in a git repository/,
    );
    expect((await core.api.getProjectGit({ projectId: plainProject.id })).problem).toMatch(/not in a git repository/);

    fs.appendFileSync(path.join(repo, 'shared.txt'), 'not committed\n');
    await expect(addAgent('dirty')).rejects.toThrow(/main has uncommitted changes in .*repo \(1 file: shared\.txt\)/);
    expect((await core.api.getProjectGit({ projectId: project.id })).dirtyFiles).toBe(1);
    git(repo, 'checkout', '--', 'shared.txt');

    git(repo, 'branch', 'taken');
    await expect(addAgent('named', { kind: 'new-worktree', branch: 'taken' })).rejects.toThrow(/A branch named taken already exists/);
    await expect(addAgent('bad', { kind: 'new-worktree', branch: 'bad..name' })).rejects.toThrow(/bad\.\.name is not a valid branch name/);
    await expect(addAgent('nobase', { kind: 'new-worktree', base: 'nowhere' })).rejects.toThrow(/There is no branch nowhere/);
    await expect(addAgent('main-again', { kind: 'existing-branch', branch: 'main' })).rejects.toThrow(/Branch main is checked out at .*repo/);
    await expect(core.api.updateProjectSettings({ projectId: project.id, settings: { worktreesDir: path.join(repo, 'trees') } })).rejects.toThrow(
      /must live outside the repository/,
    );

    expect((await core.api.getWorkState({ projectId: project.id })).agents).toEqual([]);
    expect(leftovers()).toEqual({ ...before, branches: `${before.branches}\ntaken` });
  });

  it('starts from the last commit of a dirty base when asked to, and from the base the person picks', async () => {
    git(repo, 'branch', 'develop');
    commitFiles(repo, { 'main-only.txt': 'x\n' }, 'main moves on');
    fs.appendFileSync(path.join(repo, 'shared.txt'), 'not committed\n');
    const fromDevelop = await worktreeOf(await addAgent('dev', { kind: 'new-worktree', base: 'develop' }));
    expect(fromDevelop).toMatchObject({ parentBranch: 'develop', baseCommit: git(repo, 'rev-parse', 'develop') });
    expect(fs.existsSync(path.join(fromDevelop.path, 'main-only.txt'))).toBe(false);
    const dirtyMain = await worktreeOf(await addAgent('anyway', { kind: 'new-worktree', allowDirtyBase: true }));
    expect(fs.readFileSync(path.join(dirtyMain.path, 'shared.txt'), 'utf8')).not.toContain('not committed');
  });

  it('explains a missing git and a git too old for merge-tree', async () => {
    const fakeBin = path.join(dir, 'fake-bin');
    fs.mkdirSync(fakeBin);
    fs.writeFileSync(path.join(fakeBin, 'git'), '#!/bin/sh\necho "git version 2.30.1"\n', { mode: 0o755 });
    await core.close();
    start({ ...process.env, PATH: fakeBin });
    await expect(addAgent('old')).rejects.toThrow(/git 2\.30\.1 is too old: worktrees need git 2\.38 or newer/);
    await core.close();
    start({ ...process.env, PATH: path.join(dir, 'empty-bin') });
    await expect(addAgent('none')).rejects.toThrow(/git was not found on PATH/);
    expect((await core.api.getProjectGit({ projectId: project.id })).problem).toMatch(/git was not found on PATH/);
    expect((await core.api.getWorkState({ projectId: project.id })).agents).toEqual([]);
  });

  it('diffs what the branch changed against where it left its parent: commits, staged, unstaged and untracked', async () => {
    const agent = await addAgent('writer');
    const { path: tree } = await worktreeOf(agent);
    commitFiles(tree, { 'src/app.ts': 'export const answer = 42;\n' }, 'the answer');
    writeFiles(tree, { 'shared.txt': 'line one\nline 2\nline three\n' });
    git(tree, 'add', 'shared.txt');
    writeFiles(tree, { 'shared.txt': 'line one\nline 2\nline three\nline four\n', 'notes/new.md': 'fresh\nnotes\n', 'build.log': 'ignored\n' });
    // The parent moves on meanwhile: none of that is the agent's change.
    commitFiles(repo, { 'elsewhere.txt': 'main only\n' }, 'main moves on');

    const diff = await core.api.getWorktreeDiff({ agentId: agent.id });
    expect(diff).toMatchObject({ branch: (await worktreeOf(agent)).branch, parentBranch: 'main', base: git(repo, 'rev-parse', 'main~1'), additions: 5, deletions: 2 });
    expect(diff.commits.map((commit) => commit.subject)).toEqual(['the answer']);
    expect(diff.files.map(({ path: file, status, additions, deletions, origins }) => ({ file, status, additions, deletions, origins }))).toEqual([
      { file: 'notes/new.md', status: 'added', additions: 2, deletions: 0, origins: ['untracked'] },
      { file: 'shared.txt', status: 'modified', additions: 2, deletions: 1, origins: ['staged', 'unstaged'] },
      { file: 'src/app.ts', status: 'modified', additions: 1, deletions: 1, origins: ['committed'] },
    ]);
    expect(diff.files[1]?.patch).toContain('-line two\n+line 2\n line three\n+line four\n');
    expect(diff.files[0]?.patch).toContain('+++ b/notes/new.md\n@@ -0,0 +1,2 @@\n+fresh\n+notes\n');
    // Reading the diff wrote nothing: the index is as the agent left it.
    expect(git(tree, 'diff', '--cached', '--name-only')).toBe('shared.txt');
  });

  it('merges the first of two conflicting branches, then reports the second without touching the checkout and hands it back', async () => {
    const alpha = await addAgent('alpha');
    const beta = await addAgent('beta');
    commitFiles((await worktreeOf(alpha)).path, { 'shared.txt': 'line one\nalpha was here\nline three\n' }, 'alpha edits');
    commitFiles((await worktreeOf(beta)).path, { 'shared.txt': 'line one\nbeta was here\nline three\n' }, 'beta edits');
    writeFiles(repo, { 'scratch.txt': 'uncommitted, unrelated\n' });

    expect(await core.api.checkWorktreeMerge({ agentId: alpha.id })).toMatchObject({ ahead: 1, behind: 0, conflicts: [], parentCheckout: repo, problem: null });
    const merged = await core.api.mergeWorktree({ agentId: alpha.id, strategy: 'rebase' });
    expect(merged).toMatchObject({ parentBranch: 'main', strategy: 'rebase', commits: 1, commit: git(repo, 'rev-parse', 'main') });
    expect(fs.readFileSync(path.join(repo, 'shared.txt'), 'utf8')).toContain('alpha was here');
    expect(git(repo, 'status', '--porcelain')).toBe('?? scratch.txt');
    expect((await worktreeOf(alpha)).baseCommit).toBe(merged.commit);

    const headBefore = git(repo, 'rev-parse', 'HEAD');
    const check = await core.api.checkWorktreeMerge({ agentId: beta.id });
    expect(check).toMatchObject({ ahead: 1, behind: 1, conflicts: ['shared.txt'] });
    expect(check.problem).toMatch(/conflicts in 1 file: shared\.txt\. Hand it back to beta/);
    await expect(core.api.mergeWorktree({ agentId: beta.id, strategy: 'rebase' })).rejects.toThrow(/conflicts in 1 file/);
    await expect(core.api.mergeWorktree({ agentId: beta.id, strategy: 'squash' })).rejects.toThrow(/conflicts in 1 file/);
    expect(git(repo, 'rev-parse', 'HEAD')).toBe(headBefore);
    expect(git(repo, 'status', '--porcelain')).toBe('?? scratch.txt');
    expect(fs.readFileSync(path.join(repo, 'shared.txt'), 'utf8')).toContain('alpha was here');
    expect(git((await worktreeOf(beta)).path, 'status', '--porcelain')).toBe('');

    const note = await core.api.handBackWorktreeConflicts({ agentId: beta.id });
    expect(note).toMatchObject({ agentId: beta.id, kind: 'note', state: 'pending' });
    expect(note.body).toMatch(/conflicts in 1 file: shared\.txt\. Please rebase on main and resolve them/);
    await expect(core.api.handBackWorktreeConflicts({ agentId: alpha.id })).rejects.toThrow(/no conflicts to hand back/);
  });

  it('squashes a branch into one commit on its parent and moves the branch onto it', async () => {
    const agent = await addAgent('squasher');
    const { path: tree } = await worktreeOf(agent);
    commitFiles(tree, { 'a.txt': 'a\n' }, 'add a');
    commitFiles(tree, { 'b.txt': 'b\n' }, 'add b');
    commitFiles(repo, { 'c.txt': 'c\n' }, 'main moves on');
    const merged = await core.api.mergeWorktree({ agentId: agent.id, strategy: 'squash' });
    expect(merged.commits).toBe(2);
    expect(git(repo, 'log', '--format=%s', '-2')).toBe('Merge ' + (await worktreeOf(agent)).branch + ' (2 commits, squashed)\nmain moves on');
    expect(git(repo, 'ls-files')).toContain('b.txt');
    expect(fs.existsSync(path.join(repo, 'a.txt'))).toBe(true);
    expect(git(tree, 'rev-parse', 'HEAD')).toBe(git(repo, 'rev-parse', 'main'));
    expect(await core.api.getWorktreeStatus({ agentId: agent.id })).toMatchObject({ ahead: 0, behind: 0, unmergedWork: false });
    // Nothing left to keep: removing the agent deletes its branch.
    expect(await core.api.removeAgent({ agentId: agent.id })).toMatchObject({ keptBranch: null });
    expect(branchesStartingWith(repo, 'drover/')).toEqual([]);
  });

  it("refuses a merge over uncommitted changes: the worktree's own, or the parent checkout's to the files involved", async () => {
    const agent = await addAgent('careful');
    const { path: tree } = await worktreeOf(agent);
    commitFiles(tree, { 'shared.txt': 'changed by the agent\n' }, 'agent edit');
    writeFiles(tree, { 'half-done.txt': 'wip\n' });
    expect((await core.api.checkWorktreeMerge({ agentId: agent.id })).problem).toMatch(/1 file in careful's worktree is not committed/);
    fs.rmSync(path.join(tree, 'half-done.txt'));
    writeFiles(repo, { 'shared.txt': 'the person is editing this\n' });
    const check = await core.api.checkWorktreeMerge({ agentId: agent.id });
    expect(check.blockingFiles).toEqual(['shared.txt']);
    await expect(core.api.mergeWorktree({ agentId: agent.id, strategy: 'rebase' })).rejects.toThrow(/main's checkout at .*repo has uncommitted changes to files the merge changes: shared\.txt/);
    expect(fs.readFileSync(path.join(repo, 'shared.txt'), 'utf8')).toBe('the person is editing this\n');
  });

  it('removing an agent never loses work: uncommitted changes are committed onto the branch, which is kept', async () => {
    const keeper = await addAgent('keeper');
    const kept = await worktreeOf(keeper);
    writeFiles(kept.path, { 'shared.txt': 'unsaved idea\n', 'brand-new.txt': 'new\n' });
    const result = await core.api.removeAgent({ agentId: keeper.id });
    expect(result.keptBranch).toBe(kept.branch);
    expect(fs.existsSync(kept.path)).toBe(false);
    expect(git(repo, 'show', `${kept.branch}:shared.txt`)).toBe('unsaved idea');
    expect(git(repo, 'show', `${kept.branch}:brand-new.txt`)).toBe('new');
    expect(git(repo, 'worktree', 'list')).not.toContain(kept.path);

    const idle = await worktreeOf(await addAgent('idle'));
    await core.api.removeAgent({ agentId: idle.agentId });
    expect(branchesStartingWith(repo, 'drover/idle')).toEqual([]);
    expect(fs.existsSync(idle.path)).toBe(false);

    const discarded = await worktreeOf(await addAgent('discarded'));
    commitFiles(discarded.path, { 'x.txt': 'x\n' }, 'work to throw away');
    writeFiles(discarded.path, { 'y.txt': 'y\n' });
    expect(await core.api.removeAgent({ agentId: discarded.agentId, discardWork: true })).toMatchObject({ keptBranch: null });
    expect(branchesStartingWith(repo, 'drover/discarded')).toEqual([]);
    expect(events.filter((event) => event.name === 'agentWorktreeChanged' && event.worktree === null)).toHaveLength(3);
  });

  it('saves uncommitted work on removal even where git knows no identity of the person', async () => {
    const home = path.join(dir, 'empty-home');
    fs.mkdirSync(home);
    git(repo, 'config', '--unset', 'user.name');
    git(repo, 'config', '--unset', 'user.email');
    await core.close();
    start({ ...process.env, HOME: home, XDG_CONFIG_HOME: home, GIT_CONFIG_NOSYSTEM: '1', EMAIL: '' });
    const agent = await addAgent('anonymous');
    const { path: tree, branch } = await worktreeOf(agent);
    writeFiles(tree, { 'draft.txt': 'not lost\n' });
    expect((await core.api.removeAgent({ agentId: agent.id })).keptBranch).toBe(branch);
    expect(git(repo, 'show', `${branch}:draft.txt`)).toBe('not lost');
  });

  it('removes an agent whose worktree the repository no longer records as the refusal advises: its branch is kept and its folder left as it is', async () => {
    const agent = await addAgent('pruned');
    const tree = await worktreeOf(agent);
    writeFiles(tree.path, { 'unsaved.txt': 'only here\n' });
    // The folder was away (on a disk not mounted, say) when git worktree prune ran.
    fs.renameSync(tree.path, `${tree.path}-away`);
    git(repo, 'worktree', 'prune');
    fs.renameSync(`${tree.path}-away`, tree.path);
    await expect(core.api.getWorktreeStatus({ agentId: agent.id })).rejects.toThrow(
      `Remove the agent: its branch ${tree.branch} is kept, and ${tree.path} is left as it is for you to save what you need from it.`,
    );
    expect((await core.api.removeAgent({ agentId: agent.id })).keptBranch).toBe(tree.branch);
    expect(fs.readFileSync(path.join(tree.path, 'unsaved.txt'), 'utf8')).toBe('only here\n');
    expect(branchesStartingWith(repo, tree.branch)).toEqual([tree.branch]);
  });

  it('says in plain words why a worktree with a submodule checked out is not removed, and what to do', async () => {
    const lib = makeRepo(path.join(dir, 'lib'), { 'readme.md': 'the library\n' });
    git(repo, '-c', 'protocol.file.allow=always', 'submodule', 'add', '--quiet', lib, 'lib');
    git(repo, 'commit', '--quiet', '-m', 'the library as a submodule');
    const agent = await addAgent('nested');
    const tree = await worktreeOf(agent);
    git(tree.path, '-c', 'protocol.file.allow=always', 'submodule', 'update', '--quiet', '--init');
    writeFiles(tree.path, { 'draft.txt': 'work\n' });
    await expect(core.api.removeAgent({ agentId: agent.id })).rejects.toThrow(
      `nested's worktree has submodules checked out in it (lib), and git removes such a worktree only when forced, since what they hold (their own commits and changes) would go with it; ` +
        `its other uncommitted work was committed onto ${tree.branch}. Save what you need from the submodules, then run git worktree remove --force ${tree.path} in ${repo} and remove the agent again.`,
    );
    expect(git(repo, 'show', `${tree.branch}:draft.txt`)).toBe('work');
    git(repo, 'worktree', 'remove', '--force', tree.path);
    expect((await core.api.removeAgent({ agentId: agent.id })).keptBranch).toBe(tree.branch);
  });

  it('refuses to remove an agent while its task runs in its worktree', async () => {
    const agent = await addAgent('busy');
    const task = await core.api.createTask({ projectId: project.id, command: 'sleep 30', ownerAgentId: agent.id });
    await waitFor(async () => (await core.api.getTask({ taskId: task.id })).state === 'running', 'the task to run');
    await expect(core.api.removeAgent({ agentId: agent.id })).rejects.toThrow(/1 task of busy still runs in its worktree: cancel it first/);
    await core.api.cancelTask({ taskId: task.id });
    await ended(task.id);
    await core.api.removeAgent({ agentId: agent.id });
  });

  it('attaches an existing branch or worktree, and never deletes what it did not make', async () => {
    git(repo, 'branch', 'feature/login');
    commitFiles(repo, { 'main-later.txt': 'x\n' }, 'main later');
    const onBranch = await worktreeOf(await addAgent('login', { kind: 'existing-branch', branch: 'feature/login' }));
    expect(onBranch).toMatchObject({ branch: 'feature/login', parentBranch: 'main', ownsFolder: true, ownsBranch: false, baseCommit: git(repo, 'rev-parse', 'main~1') });
    const external = path.join(dir, 'external');
    git(repo, 'worktree', 'add', '--quiet', '-b', 'hand-made', external);
    const gitInfo = await core.api.getProjectGit({ projectId: project.id });
    expect(gitInfo).toMatchObject({ problem: null, currentBranch: 'main', freeWorktrees: [{ path: external, branch: 'hand-made' }] });
    expect(gitInfo.branches).toEqual(expect.arrayContaining(['main', 'feature/login', 'hand-made']));
    const attached = await worktreeOf(await addAgent('visitor', { kind: 'existing-worktree', path: external }));
    expect(attached).toMatchObject({ path: external, branch: 'hand-made', ownsFolder: false, ownsBranch: false });
    await expect(addAgent('visitor2', { kind: 'existing-worktree', path: external })).rejects.toThrow(/Another agent already works in/);

    await core.api.removeAgent({ agentId: attached.agentId });
    expect(fs.existsSync(external)).toBe(true);
    expect(branchesStartingWith(repo, 'hand-made')).toEqual(['hand-made']);
    await core.api.removeAgent({ agentId: onBranch.agentId });
    expect(fs.existsSync(onBranch.path)).toBe(false);
    expect(branchesStartingWith(repo, 'feature/login')).toEqual(['feature/login']);
  });

  it('announces file changes in a watched worktree, debounced, until the last watcher stops', async () => {
    const agent = await addAgent('watched');
    // In a project of its own: the overlap radar watches every worktree of a project with two or more.
    const otherProject = await core.api.addProject({ path: makeRepo(path.join(dir, 'other-repo'), { 'readme.txt': 'other\n' }) });
    const control = await core.api.createAgent({ projectId: otherProject.id, name: 'control', role: '', profileId: 'shell', workspace: { kind: 'new-worktree' } });
    const { path: tree } = await worktreeOf(agent);
    const controller = new AbortController();
    const client: Client = { signal: controller.signal, caller: { kind: 'person' }, identifyAs: () => {}, sendTaskOutput: () => {}, sendTerminal: () => {} };
    const otherClient: Client = { signal: new AbortController().signal, caller: { kind: 'person' }, identifyAs: () => {}, sendTaskOutput: () => {}, sendTerminal: () => {} };
    await core.api.watchWorktree({ agentId: agent.id }, client);
    await core.api.watchWorktree({ agentId: control.id }, otherClient);
    const changes = (of: Agent) => events.filter((event) => event.name === 'agentWorktreeChanged' && event.agentId === of.id && event.worktree?.changedAt !== null).length;
    writeFiles(tree, { 'deep/er/file.txt': 'one\n' });
    await waitFor(() => changes(agent) >= 1, 'a change to be announced');
    const afterFirst = changes(agent);
    writeFiles(tree, { 'deep/er/file.txt': 'two\n' });
    git(tree, 'add', '--all');
    await waitFor(() => changes(agent) > afterFirst, 'the new folder and the index to be watched');

    // Its only client goes: changes to it are no longer announced, while the other worktree's still are.
    controller.abort();
    const settled = changes(agent);
    const controlBefore = changes(control);
    commitFiles(tree, { 'after.txt': 'unwatched\n' }, 'after the watch');
    const controlTree = (await core.api.getWorkState({ projectId: otherProject.id })).worktrees[0]?.path ?? '';
    writeFiles(controlTree, { 'still.txt': 'watched\n' });
    await waitFor(() => changes(control) > controlBefore, "the other worktree's change");
    expect(changes(agent)).toBe(settled);
  });

  it('adds up the disk its worktrees use, and pushes a branch to a remote', async () => {
    const agent = await addAgent('pusher');
    const { path: tree, branch } = await worktreeOf(agent);
    writeFiles(tree, { 'big.bin': 'x'.repeat(200_000) });
    const usage = await core.api.getWorktreeDiskUsage({ projectId: project.id });
    expect(usage.worktrees).toEqual([{ agentId: agent.id, path: tree, bytes: usage.bytes }]);
    expect(usage.bytes).toBeGreaterThan(200_000);

    await expect(core.api.pushWorktreeBranch({ agentId: agent.id })).rejects.toThrow(/no remote to push to/);
    const remote = path.join(dir, 'remote.git');
    git(dir, 'init', '--quiet', '--bare', remote);
    git(repo, 'remote', 'add', 'origin', remote);
    commitFiles(tree, {}, 'pushed work');
    expect(await core.api.pushWorktreeBranch({ agentId: agent.id })).toMatchObject({ remote: 'origin', branch });
    expect(git(remote, 'rev-parse', branch)).toBe(git(tree, 'rev-parse', 'HEAD'));
  });

  it('at boot, prunes a worktree whose folder vanished and keeps its branch; the agent says why it cannot start', async () => {
    const agent = await addAgent('vanishing');
    const worktree = await worktreeOf(agent);
    await core.close();
    removeDir(worktree.path);
    start();
    expect(await worktreeOf(agent)).toMatchObject({ state: 'missing', portBase: null });
    expect(git(repo, 'worktree', 'list')).not.toContain(worktree.path);
    expect(branchesStartingWith(repo, worktree.branch)).toEqual([worktree.branch]);
    await expect(core.api.startAgent({ agentId: agent.id, resume: false })).rejects.toThrow(/worktree folder .* is gone \(its branch drover\/vanishing-\w+ is kept\)/);
    expect(await core.api.removeAgent({ agentId: agent.id })).toMatchObject({ keptBranch: null });
    expect(branchesStartingWith(repo, worktree.branch)).toEqual([]);
  });
});
