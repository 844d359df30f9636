import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Agent, FormerAgent } from '../../../shared/entities/agents';
import type { InboxMessage } from '../../../shared/entities/inbox';
import type { Project, ProjectSettings } from '../../../shared/entities/projects';
import type { AgentWorkspaceRequest, MergeCheck, MergeResult, MergeStrategy, ProjectGit, Worktree, WorktreeDiff, WorktreeDiskUsage, WorktreeStatus } from '../../../shared/entities/worktrees';
import { isInside } from '../../../shared/folders';
import { countOf, listNames } from '../../../shared/plural';
import { savedWorkSubject } from '../../common/savedWork';
import { DroverRequestError, fail } from '../errors';
import type { EventBus } from '../events/eventBus';
import { aheadBehind, branchExists, currentBranch, localBranches, requireBranchName } from '../git/branches';
import { runCommitting } from '../git/commit';
import { readWorktreeDiff } from '../git/diff';
import { splitNul } from '../git/nulFields';
import { repositoryRoot, requireRepositoryRoot } from '../git/repository';
import { commitOf, mergeBase } from '../git/revisions';
import type { Git, RecordedCheckout } from '../git/runner';
import { stageEverything } from '../git/staging';
import { uncommittedPaths } from '../git/status';
import { checkedOutSubmodules } from '../git/submodules';
import { checkoutOf, worktreeList, type WorktreeEntry } from '../git/worktreeList';
import type { MediatedInbox } from '../inbox/mediatedInbox';
import type { Locator } from '../locate';
import type { ProjectWork } from '../projects/projectMethods';
import type { ProjectRegistry } from '../projects/projectRegistry';
import type { ProjectStore, ProjectStores } from '../storage/projectStores';
import type { CreateTaskInput } from '../tasks/taskService';
import { isCheckout, requireUsable, workspaceOf, type AgentWorkspaces, type Workspace } from '../workspaces/agentWorkspace';
import { diskUsage } from './diskUsage';
import { FolderWatcher } from './folderWatcher';
import type { PortBlocks } from '../workspaces/portBlocks';
import type { WorktreeCheckouts } from './worktreeCheckouts';
import { copyIncludedFiles } from './worktreeInclude';
import { inspectMerge, mergeIntoParent, rebaseOnParent, type MergeStart } from './worktreeMerge';
import { WorktreeRecovery } from './worktreeRecovery';
import { undoWorktreeCreation } from './worktreeUndo';

/** A worktree request other than "work in the project folder". */
export type WorktreeRequest = Exclude<AgentWorkspaceRequest, { kind: 'project-folder' }>;

/** Everything a new worktree needs, checked before anything is made on disk. */
export interface WorktreePlan {
  kind: WorktreeRequest['kind'];
  repoRoot: string;
  /** The project's folder relative to the repository's root. */
  subdir: string;
  path: string;
  branch: string;
  parentBranch: string;
  baseCommit: string;
  ownsFolder: boolean;
  ownsBranch: boolean;
}

/** The one thing worktrees need of the task runner: starting the setup command as the agent's task. */
export interface TaskStarter {
  create(input: CreateTaskInput): unknown;
}

export interface WorktreeServiceOptions {
  /** Quiet time before a watched worktree's change is announced. */
  watchDebounceMs?: number;
  log(line: string): void;
}

interface Watch {
  watcher: FolderWatcher | null;
  clients: number;
}

const SETUP_LABEL = 'worktree setup';

/** A name git and file systems take: lowercase letters, digits, dots and dashes. */
export function slugOf(name: string): string {
  const slug = name
    .toLowerCase()
    .replace(/[^a-z0-9.]+/g, '-')
    .replace(/^[-.]+|[-.]+$/g, '')
    .slice(0, 40);
  return slug || 'agent';
}

function shortRandom(): string {
  return Array.from(randomBytes(4), (byte) => (byte % 36).toString(36)).join('');
}

/**
 * Each agent's own git worktree: made outside the repository on its own branch, kept ready to
 * work in (included files copied, a setup task, a block of ports), reviewed as a diff, merged back
 * without touching a checkout before it is safe, and removed without losing work.
 */
/** How an agent's worktree goes: its work discarded, its branch kept whatever it holds (an archive), or the commit a forge merged. */
export interface RemoveOptions {
  discardWork?: boolean;
  keepBranch?: boolean;
  mergedUpstream?: string | undefined;
}

export class WorktreeService implements AgentWorkspaces, ProjectWork {
  private readonly watches = new Map<string, Watch>();
  /** Agents whose worktree is being merged or removed right now. */
  private readonly operating = new Set<string>();

  constructor(
    private readonly locator: Locator,
    private readonly projects: ProjectRegistry,
    private readonly stores: ProjectStores,
    private readonly events: EventBus,
    private readonly inbox: MediatedInbox,
    private readonly git: Git,
    private readonly checkouts: WorktreeCheckouts,
    private readonly ports: PortBlocks,
    private readonly tasks: TaskStarter,
    private readonly options: WorktreeServiceOptions,
  ) {}

  workspaceOf(agent: Agent, projectPath: string): Workspace {
    return workspaceOf(this.stores.get(agent.projectId), agent, projectPath);
  }

  /** The worktree as Drover's git reaches it (its git dir from the repository's record); refused when its .git was redirected. */
  checkout(worktree: Worktree): Promise<RecordedCheckout> {
    return this.checkouts.of(worktree);
  }

  /** What the project's repository offers a new agent; `problem` says why worktrees cannot be made. */
  async projectGit(projectId: string): Promise<ProjectGit> {
    const project = this.projects.get(projectId);
    const none: ProjectGit = { projectId, problem: null, currentBranch: null, branches: [], dirtyFiles: 0, freeWorktrees: [] };
    try {
      const root = await repositoryRoot(this.git, project.path);
      if (root === null) return { ...none, problem: `${project.path} is not in a git repository: its agents work in the folder itself (no worktree of their own).` };
      const [current, branches, entries, dirty] = await Promise.all([
        currentBranch(this.git, project.path),
        localBranches(this.git, root),
        worktreeList(this.git, root),
        uncommittedPaths(this.git, project.path, { trackedOnly: true }),
      ]);
      // A repository before its first commit has nothing a worktree could start from.
      if (branches.length === 0) return { ...none, currentBranch: current, problem: `${current ?? 'The repository'} has no commits yet: agents work in the project folder until its first commit.` };
      const used = new Set(this.stores.get(projectId).worktrees.list().map((worktree) => worktree.path));
      const freeWorktrees = entries
        .filter((entry) => entry.path !== root && !used.has(entry.path) && !entry.bare && !entry.prunable)
        .map((entry) => ({ path: entry.path, branch: entry.branch }));
      return { ...none, currentBranch: current, branches, dirtyFiles: dirty.length, freeWorktrees };
    } catch (error) {
      if (error instanceof DroverRequestError) return { ...none, problem: error.message };
      throw error;
    }
  }

  /** Checks a worktree request and decides its folder, branch, parent and base; nothing is made yet. */
  async plan(project: Project, agentName: string, request: WorktreeRequest): Promise<WorktreePlan> {
    const repoRoot = await requireRepositoryRoot(this.git, project.path);
    const subdir = path.relative(repoRoot, project.path);
    // Independent questions go to git at once: creating a worktree should cost little more than git's own work.
    const requestedParent = request.kind === 'new-worktree' ? request.base : request.parent;
    const [entries, parentBranch] = await Promise.all([worktreeList(this.git, repoRoot), requestedParent ?? currentBranch(this.git, project.path)]);
    if (!parentBranch) fail('invalid-state', 'The project checkout is on a detached HEAD: pick the branch the agent starts from.');
    await requireBranchName(this.git, repoRoot, parentBranch);
    const parentTip = await commitOf(this.git, repoRoot, `refs/heads/${parentBranch}`);
    if (!parentTip) {
      const unborn = !requestedParent;
      fail(unborn ? 'invalid-state' : 'not-found', unborn ? `${parentBranch} has no commits yet: commit something first.` : `There is no branch ${parentBranch} in this repository.`);
    }
    const folderName = `${slugOf(agentName)}-${shortRandom()}`;
    const ownFolder = path.join(this.worktreesRoot(project, repoRoot), folderName);

    if (request.kind === 'existing-worktree') {
      const target = this.existingWorktree(entries, repoRoot, request.path, project.id);
      if (!target.branch) fail('invalid-state', `${target.path} has a detached HEAD: check out a branch there first.`);
      await requireBranchName(this.git, repoRoot, target.branch);
      const baseCommit = await this.forkPoint(repoRoot, parentBranch, target.branch);
      return { kind: request.kind, repoRoot, subdir, path: target.path, branch: target.branch, parentBranch, baseCommit, ownsFolder: false, ownsBranch: false };
    }
    this.refuseExisting(ownFolder);
    if (request.kind === 'existing-branch') {
      await requireBranchName(this.git, repoRoot, request.branch);
      if (!(await branchExists(this.git, repoRoot, request.branch))) fail('not-found', `There is no branch ${request.branch} in this repository.`);
      const holder = checkoutOf(entries, request.branch);
      if (holder) {
        fail(
          'conflict',
          `Branch ${request.branch} is checked out at ${holder.path}, and a branch can be checked out in one place at a time. Attach that worktree instead, or pick another branch.`,
        );
      }
      const baseCommit = await this.forkPoint(repoRoot, parentBranch, request.branch);
      return { kind: request.kind, repoRoot, subdir, path: ownFolder, branch: request.branch, parentBranch, baseCommit, ownsFolder: true, ownsBranch: false };
    }
    const branch = request.branch ?? `drover/${folderName}`;
    const [, , taken] = await Promise.all([
      request.allowDirtyBase ? Promise.resolve() : this.refuseDirtyBase(repoRoot, entries, parentBranch),
      requireBranchName(this.git, repoRoot, branch),
      branchExists(this.git, repoRoot, branch),
    ]);
    if (taken) fail('conflict', `A branch named ${branch} already exists. Pick another name, or attach it as an existing branch.`);
    return { kind: request.kind, repoRoot, subdir, path: ownFolder, branch, parentBranch, baseCommit: parentTip, ownsFolder: true, ownsBranch: true };
  }

  /** Writes the plan down (state 'creating') before anything is made, inside the caller's transaction. */
  journal(store: ProjectStore, agentId: string, plan: WorktreePlan): Worktree {
    return store.worktrees.insert({
      agentId,
      path: plan.path,
      subdir: plan.subdir,
      branch: plan.branch,
      parentBranch: plan.parentBranch,
      baseCommit: plan.baseCommit,
      ownsFolder: plan.ownsFolder,
      ownsBranch: plan.ownsBranch,
      createdAt: Date.now(),
    });
  }

  /**
   * Makes the journalled worktree: `git worktree add` (a new branch with --no-track, or the existing
   * one), the files `.worktreeinclude` names, a block of ports. On any failure what was made is
   * undone and the error rethrown; the caller drops the journal.
   */
  async build(store: ProjectStore, agent: Agent, plan: WorktreePlan): Promise<Worktree> {
    const journalled = store.worktrees.get(agent.id) as Worktree;
    let portBase: number | null = null;
    try {
      if (plan.kind !== 'existing-worktree') {
        await fs.promises.mkdir(path.dirname(plan.path), { recursive: true });
        const add = plan.kind === 'new-worktree' ? ['--no-track', '-b', plan.branch, '--end-of-options', plan.path, plan.baseCommit] : ['--end-of-options', plan.path, plan.branch];
        await this.git.run(plan.repoRoot, ['worktree', 'add', '--quiet', ...add]);
        await copyIncludedFiles(this.git, plan.repoRoot, plan.path);
      }
      portBase = await this.ports.claim({ folder: plan.path, projectId: store.projectId, agentId: agent.id });
      return this.announce(store.worktrees.update(agent.id, { state: 'ready', portBase }));
    } catch (error) {
      if (portBase !== null) this.ports.release(portBase, plan.path);
      try {
        undoWorktreeCreation(this.git, plan.repoRoot, journalled, this.options.log);
      } catch (undoError) {
        this.options.log(`could not undo the worktree at ${plan.path}: ${String(undoError)}`);
      }
      throw error;
    }
  }

  /** Starts the project's setup command (if any) as the agent's task in its new worktree; the agent is woken when it ends. */
  startSetup(store: ProjectStore, agent: Agent): void {
    const worktree = store.worktrees.get(agent.id);
    const command = store.settings.get().worktreeSetupCommand;
    if (!worktree?.ownsFolder || !command) return;
    try {
      this.tasks.create({ projectId: store.projectId, command, cwd: worktree.folder, ownerAgentId: agent.id, label: SETUP_LABEL });
    } catch (error) {
      this.options.log(`could not start the setup of ${agent.name}'s worktree: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  /**
   * The agent is being removed: its worktree folder goes. With `discardWork` its branch goes too;
   * otherwise uncommitted changes are committed onto the branch first, and a branch with commits
   * its parent lacks (or any, with `keepBranch`) is kept (returned). An attached worktree or branch
   * that Drover did not make is never touched. `mergedUpstream` names the commit a forge merged: a
   * branch still at exactly that commit holds no work the forge lacks, so it goes too.
   */
  async remove(store: ProjectStore, agent: Agent, { discardWork = false, keepBranch = false, mergedUpstream }: RemoveOptions): Promise<string | null> {
    const worktree = store.worktrees.get(agent.id);
    if (!worktree) return null;
    if (worktree.state === 'creating') fail('invalid-state', `${agent.name}'s worktree is still being made; remove the agent once that ends.`);
    this.stopWatching(agent.id);
    const repo = this.projects.get(store.projectId).path;
    const keptBranch = worktree.ownsFolder ? await this.exclusively(agent, () => this.removeFolder(store, repo, agent, worktree, { discardWork, keepBranch, mergedUpstream })) : null;
    if (worktree.portBase !== null) this.ports.release(worktree.portBase, worktree.path);
    return keptBranch;
  }

  /** Forgets the row of a removed agent's worktree (its folder went in `remove`) and announces it gone. */
  forget(store: ProjectStore, agentId: string): void {
    const seq = store.worktrees.remove(agentId);
    this.events.emit({ name: 'agentWorktreeChanged', seq, projectId: store.projectId, agentId, worktree: null });
  }

  /**
   * Deletes the branch a removed agent's work was kept on. While it holds commits its parent lacks
   * (or its parent is gone) that takes `force`: the person confirmed the work may go.
   */
  async deleteKeptBranch(store: ProjectStore, former: FormerAgent, force: boolean): Promise<void> {
    const branch = former.keptBranch ?? fail('invalid-state', `${former.name} left no branch behind.`);
    const repo = this.projects.get(store.projectId).path;
    if (!(await branchExists(this.git, repo, branch))) return;
    if (store.worktrees.list().some((worktree) => worktree.branch === branch)) fail('invalid-state', `${branch} is in use by an agent's worktree now.`);
    if (!force) {
      const parent = former.parentBranch;
      const ahead = parent && (await branchExists(this.git, repo, parent)) ? (await aheadBehind(this.git, repo, parent, branch)).ahead : null;
      if (ahead === null) fail('invalid-state', `${branch} cannot be compared with the branch it came from (${parent ?? 'unknown'} is gone): confirm to delete it with its work.`);
      if (ahead > 0) fail('invalid-state', `${branch} holds ${countOf(ahead, 'commit')} that ${parent} lacks: merge it first, or confirm to delete it with its work.`);
    }
    await this.git.run(repo, ['branch', '-D', '--end-of-options', branch]);
  }

  async status(agentId: string): Promise<WorktreeStatus> {
    const { worktree } = this.requireWorktree(agentId, { ready: false });
    const repo = this.projects.get(worktree.projectId).path;
    const folderExists = fs.existsSync(worktree.path);
    const [branchThere, parentThere, uncommitted] = await Promise.all([
      branchExists(this.git, repo, worktree.branch),
      branchExists(this.git, repo, worktree.parentBranch),
      isCheckout(worktree.path) ? this.checkouts.of(worktree).then((checkout) => uncommittedPaths(this.git, checkout)) : Promise.resolve([]),
    ]);
    const counts = branchThere ? await this.divergence(repo, worktree, parentThere) : { ahead: 0, behind: 0 };
    return {
      agentId,
      branch: worktree.branch,
      parentBranch: worktree.parentBranch,
      folderExists,
      branchExists: branchThere,
      uncommittedFiles: uncommitted.length,
      ...counts,
      unmergedWork: counts.ahead > 0,
    };
  }

  async list(projectId: string): Promise<{ agentName: string; worktree: Worktree; status: WorktreeStatus | null }[]> {
    this.projects.get(projectId);
    const store = this.stores.get(projectId);
    return Promise.all(
      store.worktrees.list().map(async (worktree) => ({
        agentName: store.agents.get(worktree.agentId)?.name ?? worktree.agentId,
        worktree,
        status: worktree.state === 'creating' ? null : await this.status(worktree.agentId).catch(() => null),
      })),
    );
  }

  async diff(agentId: string): Promise<WorktreeDiff> {
    const { worktree } = this.requireWorktree(agentId);
    return readWorktreeDiff(this.git, await this.checkouts.of(worktree), worktree);
  }

  async checkMerge(agentId: string): Promise<MergeCheck> {
    const { agent, worktree } = this.requireWorktree(agentId);
    return (await inspectMerge(this.git, await this.checkouts.of(worktree), worktree, agent.name)).check;
  }

  /**
   * Merges the branch into its parent, journalled from its first change until it ends (a crash in
   * between is undone at boot). With `expected`, only while the tips are still those.
   */
  async merge(agentId: string, strategy: MergeStrategy, message: string | undefined, expected?: MergeStart): Promise<MergeResult> {
    const { worktree } = this.requireWorktree(agentId);
    const merged = await this.journalled(agentId, (checkout, agent, starting) => mergeIntoParent(this.git, checkout, worktree, agent.name, strategy, message, starting, expected), (done) => done.commit);
    return { agentId, parentBranch: worktree.parentBranch, strategy, ...merged };
  }

  /** The commits the branch and its parent are at now. */
  async tips(agentId: string): Promise<MergeStart> {
    const { worktree } = this.requireWorktree(agentId);
    const checkout = await this.checkouts.of(worktree);
    const [branchTip, onto] = await Promise.all([commitOf(this.git, checkout, `refs/heads/${worktree.branch}`), commitOf(this.git, checkout, `refs/heads/${worktree.parentBranch}`)]);
    return { branchTip: branchTip ?? '', onto: onto ?? '' };
  }

  /** Rebases the branch on its parent's tip, leaving the parent where it is; journalled as a merge is. */
  rebaseOnParent(agentId: string): Promise<MergeStart> {
    const { worktree } = this.requireWorktree(agentId);
    return this.journalled(agentId, (checkout, agent, starting) => rebaseOnParent(this.git, checkout, worktree, agent.name, starting), (rebased) => rebased.onto);
  }

  /** Runs a merge or rebase of the agent's branch journalled from its first change; the worktree's base becomes `baseOf` what it did. */
  private journalled<T>(agentId: string, operation: (checkout: RecordedCheckout, agent: Agent, starting: (start: MergeStart) => void) => Promise<T>, baseOf: (done: T) => string): Promise<T> {
    const { store, agent, worktree } = this.requireWorktree(agentId);
    return this.exclusively(agent, async () => {
      try {
        const done = await operation(await this.checkouts.of(worktree), agent, (start) => store.worktrees.journalOperation(agentId, { kind: 'merging', ...start }));
        this.announce(store.worktrees.update(agentId, { baseCommit: baseOf(done), changedAt: Date.now() }));
        return done;
      } finally {
        store.worktrees.journalOperation(agentId, null);
      }
    });
  }

  /** Posts the merge's conflicts to the agent: it rebases on its parent and resolves them. */
  async handBack(agentId: string): Promise<InboxMessage> {
    const { store, agent, worktree } = this.requireWorktree(agentId);
    const { check } = await inspectMerge(this.git, await this.checkouts.of(worktree), worktree, agent.name);
    if (check.conflicts.length === 0) fail('invalid-state', `Merging ${worktree.branch} into ${worktree.parentBranch} has no conflicts to hand back.`);
    const parent = worktree.parentBranch;
    const body =
      `Merging your branch ${worktree.branch} into ${parent} conflicts in ${countOf(check.conflicts.length, 'file')}: ${listNames(check.conflicts)}. ` +
      `Please rebase on ${parent} and resolve them: in your worktree run \`git rebase ${parent}\`, fix each conflict, ` +
      `\`git add\` the files and \`git rebase --continue\`; then say when it is done.`;
    return this.inbox.post(store.projectId, { agentId, kind: 'note', body });
  }

  /**
   * Pushes the agent's branch to a remote (origin, or the repository's only remote). The
   * repository's own pre-push hook runs (Git LFS pushes its objects from there), taken from the
   * main repository's git dir, which no agent in a worktree can write; a hooks path set in the
   * config (husky's lies in the worktree) is not used.
   */
  async push(agentId: string, remote: string | undefined): Promise<{ agentId: string; remote: string; branch: string }> {
    const { worktree } = this.requireWorktree(agentId);
    const checkout = await this.checkouts.of(worktree);
    const hooks = path.join(await this.checkouts.commonDirOf(this.projects.get(worktree.projectId).path), 'hooks');
    const remotes = (await this.git.run(checkout, ['remote'])).stdout.split('\n').filter((name) => name.length > 0);
    const target = remote ?? (remotes.includes('origin') ? 'origin' : remotes.length === 1 ? remotes[0] : undefined);
    if (!target) fail('invalid-state', remotes.length === 0 ? 'This repository has no remote to push to: add one with git remote add.' : `Name the remote to push to: ${remotes.join(', ')}.`);
    if (!remotes.includes(target)) fail('not-found', `There is no remote ${target} (remotes: ${remotes.join(', ') || 'none'}).`);
    await this.git.run(checkout, ['-c', `core.hooksPath=${hooks}`, 'push', '--quiet', '--end-of-options', target, `refs/heads/${worktree.branch}:refs/heads/${worktree.branch}`], { remote: true });
    return { agentId, remote: target, branch: worktree.branch };
  }

  async diskUsage(projectId: string): Promise<WorktreeDiskUsage> {
    this.projects.get(projectId);
    const owned = this.stores
      .get(projectId)
      .worktrees.list()
      .filter((worktree) => worktree.ownsFolder);
    const worktrees = await Promise.all(owned.map(async (worktree) => ({ agentId: worktree.agentId, path: worktree.path, bytes: await diskUsage(worktree.path) })));
    return { projectId, bytes: worktrees.reduce((sum, entry) => sum + entry.bytes, 0), worktrees };
  }

  /**
   * Starts watching the agent's worktree for a client (one watcher however many clients); returns
   * what stops it for that client. Changes move the worktree's `changedAt`, announced debounced.
   */
  async watch(agentId: string): Promise<() => void> {
    const { worktree } = this.requireWorktree(agentId);
    let watch = this.watches.get(agentId);
    if (!watch) {
      const made: Watch = { watcher: null, clients: 0 };
      watch = made;
      this.watches.set(agentId, made);
      try {
        const checkout = await this.checkouts.of(worktree);
        const ignored = await this.git.run(checkout, ['ls-files', '--others', '--ignored', '--exclude-standard', '--directory', '-z']);
        const skipped = new Set(['.git/', ...splitNul(ignored.stdout).filter((entry) => entry.endsWith('/'))]);
        const dir = checkout.gitDir;
        // Stopped while git answered: nobody wants it any more.
        if (this.watches.get(agentId) === made) {
          made.watcher = new FolderWatcher({
            root: worktree.path,
            extraFolders: [dir, path.join(dir, 'logs')],
            skip: (folder) => skipped.has(folder),
            debounceMs: this.options.watchDebounceMs ?? 300,
            onChange: () => this.touched(worktree.projectId, agentId),
          });
        }
      } catch (error) {
        if (this.watches.get(agentId) === made) this.watches.delete(agentId);
        throw error;
      }
    }
    watch.clients++;
    let stopped = false;
    return () => {
      if (stopped) return;
      stopped = true;
      const current = this.watches.get(agentId);
      if (current !== watch || --current.clients > 0) return;
      current.watcher?.close();
      this.watches.delete(agentId);
    };
  }

  /**
   * Boot: undoes worktrees a crash left half-made, naming each one's agent to `undone` (whose agent
   * goes with it: boot removes it), puts right what it cut short in the others (see
   * settleAfterCrash), marks missing those whose folder vanished or lost its .git, keeps port blocks.
   */
  reconcile(store: ProjectStore, project: Project, undone: (agentId: string) => void): { undone: number; missing: number } {
    const worktrees = store.worktrees.list();
    const outcome = { undone: 0, missing: 0 };
    if (worktrees.length === 0) return outcome;
    this.git.ensureUsableSync();
    const recovery = new WorktreeRecovery(this.git, this.checkouts, project.path, this.options.log);
    let pruned = false;
    for (const worktree of worktrees) {
      if (worktree.state === 'creating') {
        undoWorktreeCreation(this.git, project.path, worktree, this.options.log);
        if (worktree.portBase !== null) this.ports.release(worktree.portBase, worktree.path);
        undone(worktree.agentId);
        outcome.undone++;
        continue;
      }
      this.settleAfterCrash(store, recovery, worktree);
      if (!isCheckout(worktree.path)) {
        if (!pruned) this.git.runSync(project.path, ['worktree', 'prune']);
        pruned = true;
        if (worktree.portBase !== null) this.ports.release(worktree.portBase, worktree.path);
        if (worktree.state === 'ready') this.announce(store.worktrees.update(worktree.agentId, { state: 'missing', portBase: null }));
        outcome.missing++;
      } else if (worktree.state === 'missing') {
        this.announce(store.worktrees.update(worktree.agentId, { state: 'ready' }));
      } else if (worktree.portBase !== null && !this.ports.keep(worktree.portBase, { folder: worktree.path, projectId: project.id, agentId: worktree.agentId })) {
        this.options.log(`${worktree.path} lost its ports ${worktree.portBase}…+9 to another worktree; it gets none until it is made again`);
        this.announce(store.worktrees.update(worktree.agentId, { portBase: null }));
      }
    }
    return outcome;
  }

  /** Stops every watch (the app quits). */
  close(): void {
    for (const agentId of [...this.watches.keys()]) this.stopWatching(agentId);
  }

  /** The project is being removed: its watches stop. Its worktrees stay, like its folder: nothing on disk is touched. */
  async stopProject(projectId: string): Promise<void> {
    for (const worktree of this.stores.usable([projectId]).flatMap((store) => store.worktrees.list())) this.stopWatching(worktree.agentId);
  }

  projectClosed(): void {}

  /** A worktrees folder inside the project would put worktrees inside the repository. */
  checkSettings(projectId: string, change: Partial<ProjectSettings>): void {
    const project = this.projects.get(projectId);
    if (change.worktreesDir && isInside(project.path, path.resolve(change.worktreesDir))) {
      fail('invalid-path', `Worktrees must live outside the repository, and ${change.worktreesDir} is inside the project (${project.path}).`);
    }
  }

  private touched(projectId: string, agentId: string): void {
    if (!this.stores.isOpen(projectId)) return;
    const store = this.stores.get(projectId);
    if (store.worktrees.get(agentId)) this.announce(store.worktrees.update(agentId, { changedAt: Date.now() }));
  }

  private stopWatching(agentId: string): void {
    this.watches.get(agentId)?.watcher?.close();
    this.watches.delete(agentId);
  }

  private requireWorktree(agentId: string, { ready = true } = {}): { store: ProjectStore; agent: Agent; worktree: Worktree } {
    const { store, agent } = this.locator.agent(agentId);
    const worktree = store.worktrees.get(agentId);
    if (!worktree) fail('invalid-state', `${agent.name} works in the project folder, not in a worktree of its own.`);
    if (ready) requireUsable(agent, worktree);
    return { store, agent, worktree };
  }

  /**
   * What a crash cut short in a worktree: a journalled removal is finished (its folder deleted), the
   * rebase of a journalled merge aborted and its base read again, and the locks the killed git left
   * removed. The journal goes once that is done; where git still works, it stays for the next boot.
   */
  private settleAfterCrash(store: ProjectStore, recovery: WorktreeRecovery, worktree: Worktree): void {
    const operation = store.worktrees.operationOf(worktree.agentId);
    const removed = operation?.kind === 'removing' ? recovery.finishRemoval(worktree) : true;
    const recovered = isCheckout(worktree.path) ? recovery.recover(worktree, operation) : true;
    if (!operation || !removed || !recovered) return;
    if (operation.kind === 'merging') {
      const base = recovery.baseOf(worktree);
      if (base && base !== worktree.baseCommit) this.announce(store.worktrees.update(worktree.agentId, { baseCommit: base }));
    }
    store.worktrees.journalOperation(worktree.agentId, null);
  }

  /** Runs a merge or removal of the agent's worktree, one at a time per worktree. */
  private async exclusively<T>(agent: Agent, operation: () => Promise<T>): Promise<T> {
    if (this.operating.has(agent.id)) fail('conflict', `${agent.name}'s worktree is being merged or removed already; try again once that ends.`);
    this.operating.add(agent.id);
    try {
      return await operation();
    } finally {
      this.operating.delete(agent.id);
    }
  }

  /**
   * Removes the folder: uncommitted work is first committed onto the branch (unless discarded), then
   * the removal is journalled and the folder deleted, so a crash mid-deletion is finished at boot.
   * A removal journalled before (one that failed half-way) has nothing left to save and is finished.
   * A folder that is no longer a checkout (no .git, or no record of it in the repository) is left in
   * place with its branch unless the work is discarded: nothing tells what in it is saved.
   */
  private async removeFolder(store: ProjectStore, repo: string, agent: Agent, worktree: Worktree, { discardWork = false, keepBranch = false, mergedUpstream }: RemoveOptions): Promise<string | null> {
    const folderThere = fs.existsSync(worktree.path);
    const branchThere = await branchExists(this.git, repo, worktree.branch);
    const resumed = store.worktrees.operationOf(agent.id)?.kind === 'removing';
    const force = discardWork || resumed;
    let saved = false;
    const hasDotGit = isCheckout(worktree.path);
    const recorded = hasDotGit && !force ? await this.checkouts.recordedOf(worktree) : null;
    const checkout = hasDotGit && (force || recorded !== null);
    if (recorded && (await uncommittedPaths(this.git, recorded)).length > 0) {
      await stageEverything(this.git, recorded);
      await runCommitting(this.git, recorded, ['commit', '--quiet', '--no-verify', '-m', savedWorkSubject(agent.name)]);
      saved = true;
    }
    if (recorded) await this.refuseSubmodules(repo, agent, worktree, recorded, saved);
    const leftInPlace = folderThere && !checkout && !force;
    if (leftInPlace) this.options.log(`left ${worktree.path} in place with its branch ${worktree.branch}: git no longer knows it as a checkout, so nothing tells whether what is in it was saved`);
    else if (folderThere) await this.deleteFolder(store, repo, agent, worktree, { checkout, force });
    await this.git.run(repo, ['worktree', 'prune']);
    if (!branchThere) return null;
    if (discardWork) {
      if (worktree.ownsBranch) await this.git.run(repo, ['branch', '-D', '--end-of-options', worktree.branch]);
      return null;
    }
    const parentThere = await branchExists(this.git, repo, worktree.parentBranch);
    const mergedThere = mergedUpstream !== undefined && (await commitOf(this.git, repo, `refs/heads/${worktree.branch}`)) === mergedUpstream;
    const hasWork = saved || keepBranch || leftInPlace || (!mergedThere && (await this.divergence(repo, worktree, parentThere)).ahead > 0);
    if (hasWork) return worktree.branch;
    if (worktree.ownsBranch) await this.git.run(repo, ['branch', '-D', '--end-of-options', worktree.branch]);
    return null;
  }

  /**
   * git removes a worktree with submodules checked out in it (or their git dirs kept in its own)
   * only when forced, since what they hold would go with it: said in plain words, with what to do,
   * before anything is removed.
   */
  private async refuseSubmodules(repo: string, agent: Agent, worktree: Worktree, recorded: RecordedCheckout, saved: boolean): Promise<void> {
    const submodules = await checkedOutSubmodules(this.git, recorded);
    const modules = path.join(recorded.gitDir, 'modules');
    if (submodules.length === 0 && !fs.existsSync(modules)) return;
    const what = submodules.length > 0 ? `submodules checked out in it (${listNames(submodules)})` : `the git dirs of submodules it had checked out (in ${modules})`;
    fail(
      'invalid-state',
      `${agent.name}'s worktree has ${what}, and git removes such a worktree only when forced, since what they hold (their own commits and changes) would go with it` +
        `${saved ? `; its other uncommitted work was committed onto ${worktree.branch}` : ''}. ` +
        `Save what you need from the submodules, then run git worktree remove --force ${worktree.path} in ${repo} and remove the agent again.`,
    );
  }

  private async deleteFolder(store: ProjectStore, repo: string, agent: Agent, worktree: Worktree, { checkout, force }: { checkout: boolean; force: boolean }): Promise<void> {
    store.worktrees.journalOperation(agent.id, { kind: 'removing' });
    try {
      // Unforced, git refuses a tree with anything uncommitted in it (the save above left none), and nothing is lost.
      // Forced, its refusal of a .git that no longer points back (an agent rewrote it) leaves the folder to the rm below, and its record to the prune after.
      if (checkout) await this.git.run(repo, ['worktree', 'remove', ...(force ? ['--force', '--force'] : []), '--end-of-options', worktree.path], force ? { okCodes: [0, 128] } : {});
      // What git left of a forced removal: a folder without its .git.
      if (force) await fs.promises.rm(worktree.path, { recursive: true, force: true });
    } catch (error) {
      // Refused before anything went: no removal is under way.
      const untouched = isCheckout(worktree.path)
        ? await this.checkouts
            .of(worktree)
            .then((recorded) => this.git.run(recorded, ['ls-files', '--deleted']))
            .then(
              (deleted) => deleted.stdout === '',
              () => false,
            )
        : false;
      if (untouched) store.worktrees.journalOperation(agent.id, null);
      throw error;
    }
  }

  /** Commits the branch has that its parent lacks, and the other way round; without a parent, those since its base. */
  private async divergence(repo: string, worktree: Worktree, parentThere: boolean): Promise<{ ahead: number; behind: number }> {
    if (parentThere) return aheadBehind(this.git, repo, worktree.parentBranch, worktree.branch);
    const since = await this.git.run(repo, ['rev-list', '--count', '--end-of-options', `${worktree.baseCommit}..refs/heads/${worktree.branch}`]);
    return { ahead: Number(since.stdout.trim()) || 0, behind: 0 };
  }

  private worktreesRoot(project: Project, repoRoot: string): string {
    const configured = this.stores.get(project.id).settings.get().worktreesDir;
    const root = path.resolve(configured ?? path.join(this.stores.projectDir(project.id), 'worktrees'));
    const canonical = fs.existsSync(root) ? fs.realpathSync(root) : root;
    if (isInside(repoRoot, canonical)) {
      fail('invalid-state', `Worktrees must live outside the repository, and ${canonical} is inside ${repoRoot}: choose another worktrees folder in the project's settings.`);
    }
    return canonical;
  }

  private existingWorktree(entries: readonly WorktreeEntry[], repoRoot: string, requested: string, projectId: string): WorktreeEntry {
    const absolute = path.resolve(requested);
    const canonical = fs.existsSync(absolute) ? fs.realpathSync(absolute) : absolute;
    const entry = entries.find((candidate) => candidate.path === canonical);
    if (!entry) fail('not-found', `${canonical} is not a worktree of this repository (git worktree list names them).`);
    if (entry.path === repoRoot) fail('invalid-state', 'That is the project checkout itself: let the agent work in the project folder instead.');
    if (this.stores.get(projectId).worktrees.list().some((worktree) => worktree.path === entry.path)) {
      fail('conflict', `Another agent already works in ${entry.path}.`);
    }
    return entry;
  }

  private refuseExisting(folder: string): void {
    if (fs.existsSync(folder)) fail('conflict', `${folder} already exists; try again (a new name is picked each time).`);
  }

  private async refuseDirtyBase(repoRoot: string, entries: readonly WorktreeEntry[], parentBranch: string): Promise<void> {
    const checkout = checkoutOf(entries, parentBranch);
    if (!checkout) return;
    const dirty = await uncommittedPaths(this.git, await this.checkouts.among(repoRoot, entries, checkout.path), { trackedOnly: true });
    if (dirty.length === 0) return;
    fail(
      'invalid-state',
      `${parentBranch} has uncommitted changes in ${checkout.path} (${countOf(dirty.length, 'file')}: ${listNames(dirty)}). ` +
        `The new worktree would start from ${parentBranch}'s last commit without them: commit or stash them first, or choose to start without them.`,
    );
  }

  private async forkPoint(repoRoot: string, parentBranch: string, branch: string): Promise<string> {
    if (parentBranch === branch) fail('invalid-state', `${branch} cannot merge into itself: pick another parent branch.`);
    const base = await mergeBase(this.git, repoRoot, `refs/heads/${parentBranch}`, `refs/heads/${branch}`);
    if (!base) fail('invalid-state', `${branch} and ${parentBranch} share no history, so ${branch} cannot be merged into ${parentBranch}.`);
    return base;
  }

  private announce(worktree: Worktree): Worktree {
    this.events.emit({ name: 'agentWorktreeChanged', seq: worktree.seq, projectId: worktree.projectId, agentId: worktree.agentId, worktree });
    return worktree;
  }
}
