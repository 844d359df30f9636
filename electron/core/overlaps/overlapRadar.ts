import type { Worktree } from '../../../shared/entities/worktrees';
import type { OverlapPair, ParentConflict, ProjectOverlaps } from '../../../shared/overlaps';
import type { ProjectRegistry } from '../projects/projectRegistry';
import type { ProjectStores } from '../storage/projectStores';
import type { Checkpoints } from '../turns/checkpoints';
import { isCheckout } from '../workspaces/agentWorkspace';
import type { Git, RecordedCheckout } from '../git/runner';
import { splitNul } from '../git/nulFields';
import { commitOf, mergeBase } from '../git/revisions';
import { SUBMODULES_BY_COMMIT } from '../git/status';
import type { WorktreeCheckouts } from '../worktrees/worktreeCheckouts';
import { mergeTree } from '../worktrees/worktreeMerge';
import { changedLinesOf, overlappingFiles, type ChangedLines } from './changedLines';

/** Diff output that does not depend on the person's git config; no renames, so a moved file counts at both its paths. */
const DIFF_OPTIONS = ['--no-color', '--no-ext-diff', '--no-textconv', '--no-renames', SUBMODULES_BY_COMMIT];
const PLAIN_PATHS = ['-c', 'core.quotePath=false'];

/** One agent's side of the radar: what its worktree changes since its branch left the parent, and its commits. */
interface AgentChanges {
  agentId: string;
  agentName: string;
  worktree: Worktree;
  /** The branch's tip, and the parent's current tip (null for a branch or parent that is gone). */
  tip: string | null;
  parentTip: string | null;
  lines: ChangedLines;
}

/** What one computation of a project read, kept for the next: each agent's lines by `base..tree`, each merge by its two commits. */
interface ProjectCache {
  lines: Map<string, ChangedLines>;
  merges: Map<string, string[]>;
  /** Each agent's lines, as this computation read them. */
  agents: Map<string, ChangedLines>;
}

const emptyCache = (): ProjectCache => ({ lines: new Map(), merges: new Map(), agents: new Map() });

/**
 * Which agents of a project change the same files and lines, and whose branches would conflict
 * (with each other, or with their parent's current tip). Each agent's worktree is read as it is
 * now (commits, staged, unstaged and untracked files: one tree written through a copy of its
 * index, nothing of the worktree touched) against its merge base with its parent; the diff is read
 * again only when that tree or base moved, and `git merge-tree` runs once per pair of tips, so a
 * burst of changes in one worktree costs one tree and one diff. Conflicts are about commits: what
 * is not committed cannot conflict in a merge yet.
 */
export class OverlapRadar {
  private readonly caches = new Map<string, ProjectCache>();
  /** One computation per project at a time: a second waits for the first and reads its cache. */
  private readonly running = new Map<string, Promise<unknown>>();
  /** The computation waiting for the running one: later asks share it, so bursts never pile up. */
  private readonly waiting = new Map<string, Promise<ProjectOverlaps>>();

  constructor(
    private readonly projects: ProjectRegistry,
    private readonly stores: ProjectStores,
    private readonly git: Git,
    private readonly checkouts: WorktreeCheckouts,
    private readonly checkpoints: Checkpoints,
    private readonly log: (line: string) => void,
  ) {}

  overlaps(projectId: string): Promise<ProjectOverlaps> {
    const repo = this.projects.get(projectId).path;
    const waiting = this.waiting.get(projectId);
    if (waiting) return waiting;
    const previous = this.running.get(projectId) ?? Promise.resolve();
    const begin = () => {
      this.waiting.delete(projectId);
      return this.compute(projectId, repo);
    };
    const next = previous.then(begin, begin);
    this.waiting.set(projectId, next);
    this.running.set(projectId, next);
    void next.finally(() => {
      if (this.running.get(projectId) === next) this.running.delete(projectId);
    }).catch(() => {});
    return next;
  }

  /** The lines the agent's worktree changes, file by file, as the project's last computation read them (nothing before the first). */
  changedLinesOf(projectId: string, agentId: string): ChangedLines {
    return this.caches.get(projectId)?.agents.get(agentId) ?? new Map();
  }

  /** The project went: its cache goes with it. */
  forget(projectId: string): void {
    this.caches.delete(projectId);
  }

  private async compute(projectId: string, repo: string): Promise<ProjectOverlaps> {
    const store = this.stores.get(projectId);
    const previous = this.caches.get(projectId) ?? emptyCache();
    const cache = emptyCache();
    const worktrees = store.worktrees.list().filter((worktree) => worktree.state === 'ready' && isCheckout(worktree.path));
    const read = await Promise.all(
      worktrees.map((worktree) =>
        this.agentChanges(repo, worktree, store.agents.get(worktree.agentId)?.name ?? worktree.agentId, previous, cache).catch((error: unknown) => {
          this.log(`overlap radar: could not read ${worktree.path}: ${error instanceof Error ? error.message : String(error)}`);
          return null;
        }),
      ),
    );
    const agents = read.filter((agent): agent is AgentChanges => agent !== null);
    const merge = (ours: string, theirs: string) => this.conflicts(repo, ours, theirs, previous, cache);
    const pairs: OverlapPair[] = [];
    for (const [index, first] of agents.entries()) {
      for (const second of agents.slice(index + 1)) {
        const files = overlappingFiles(first.lines, second.lines);
        if (files.length === 0) continue;
        const conflictFiles = first.tip && second.tip ? await merge(first.tip, second.tip) : [];
        pairs.push({ agents: [first.agentId, second.agentId], agentNames: [first.agentName, second.agentName], files, conflict: conflictFiles.length > 0, conflictFiles });
      }
    }
    const parentConflicts: ParentConflict[] = [];
    for (const agent of agents) {
      if (!agent.tip || !agent.parentTip) continue;
      const conflictFiles = await merge(agent.parentTip, agent.tip);
      if (conflictFiles.length > 0) {
        parentConflicts.push({ agentId: agent.agentId, agentName: agent.agentName, branch: agent.worktree.branch, parentBranch: agent.worktree.parentBranch, conflictFiles });
      }
    }
    this.caches.set(projectId, cache);
    return { projectId, pairs, parentConflicts };
  }

  private async agentChanges(repo: string, worktree: Worktree, agentName: string, previous: ProjectCache, cache: ProjectCache): Promise<AgentChanges> {
    const checkout = await this.checkouts.of(worktree);
    const [base, tree, tip, parentTip] = await Promise.all([
      mergeBase(this.git, checkout, `refs/heads/${worktree.parentBranch}`, 'HEAD'),
      this.checkpoints.tree(checkout),
      commitOf(this.git, repo, `refs/heads/${worktree.branch}`),
      commitOf(this.git, repo, `refs/heads/${worktree.parentBranch}`),
    ]);
    const key = `${base ?? worktree.baseCommit}..${tree}`;
    const lines = previous.lines.get(key) ?? cache.lines.get(key) ?? (await this.changedLines(checkout, base ?? worktree.baseCommit, tree));
    cache.lines.set(key, lines);
    cache.agents.set(worktree.agentId, lines);
    return { agentId: worktree.agentId, agentName, worktree, tip, parentTip, lines };
  }

  private async changedLines(checkout: RecordedCheckout, base: string, tree: string): Promise<ChangedLines> {
    const revs = ['--end-of-options', base, tree, '--'];
    const [names, patch] = await Promise.all([
      this.git.run(checkout, [...PLAIN_PATHS, 'diff', '--name-only', '-z', ...DIFF_OPTIONS, ...revs]),
      this.git.run(checkout, [...PLAIN_PATHS, 'diff', '-U0', '--src-prefix=a/', '--dst-prefix=b/', ...DIFF_OPTIONS, ...revs]),
    ]);
    return changedLinesOf(splitNul(names.stdout), patch.stdout);
  }

  /** The files a merge of two commits conflicts in (none when it merges cleanly). */
  private async conflicts(repo: string, ours: string, theirs: string, previous: ProjectCache, cache: ProjectCache): Promise<string[]> {
    const key = [ours, theirs].sort().join('|');
    const files = previous.merges.get(key) ?? cache.merges.get(key) ?? (await mergeTree(this.git, repo, ours, theirs)).conflicts;
    cache.merges.set(key, files);
    return files;
  }
}
