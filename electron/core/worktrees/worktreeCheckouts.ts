import fs from 'node:fs';
import path from 'node:path';
import type { Worktree } from '../../../shared/entities/worktrees';
import { fail } from '../errors';
import type { Git, GitPlace, RecordedCheckout } from '../git/runner';
import type { WorktreeEntry } from '../git/worktreeList';
import type { ProjectRegistry } from '../projects/projectRegistry';

const COMMON_DIR = ['rev-parse', '--path-format=absolute', '--git-common-dir'];

/** The folder's canonical path, or the path as given when it cannot be resolved (it is gone). */
export function realOrSame(folder: string): string {
  try {
    return fs.realpathSync(folder);
  } catch {
    return folder;
  }
}

function firstLine(file: string): string | null {
  try {
    return fs.readFileSync(file, 'utf8').split('\n')[0]?.trim() ?? '';
  } catch {
    return null;
  }
}

/** The folder a checkout's `.git` file names (relative to the checkout), or what is there instead. */
function namedByDotGit(workTree: string): { gitDir: string } | { problem: string } {
  const dotGit = path.join(workTree, '.git');
  const stat = fs.lstatSync(dotGit, { throwIfNoEntry: false });
  if (!stat) return { problem: 'there is no .git there any more' };
  if (!stat.isFile()) return { problem: `its .git is ${stat.isDirectory() ? 'a folder (a repository of its own)' : 'not a file'}` };
  const pointer = /^gitdir: (.+)$/.exec(firstLine(dotGit) ?? '')?.[1];
  return pointer ? { gitDir: realOrSame(path.resolve(workTree, pointer)) } : { problem: 'its .git file names no git dir' };
}

/** Whether `record`, a folder of `<common dir>/worktrees/`, names the worktree at `wanted` (canonical) in its `gitdir` file. */
function recordsWorktree(record: string, wanted: string): boolean {
  const named = firstLine(path.join(record, 'gitdir'));
  return named !== null && named !== '' && realOrSame(path.dirname(path.resolve(record, named))) === wanted;
}

/**
 * The git dir the repository keeps for the linked worktree at `workTree`: the one under
 * `<common dir>/worktrees/` whose `gitdir` file names `<workTree>/.git`. Both are in the main
 * repository's git dir, out of the reach of an agent that writes in its worktree. `likely` (the
 * folder the worktree's `.git` names) is looked at first: when it is such a record, the others
 * need not be read.
 */
function recordedGitDir(commonDir: string, workTree: string, likely?: string): string | null {
  const records = realOrSame(path.join(commonDir, 'worktrees'));
  const wanted = realOrSame(workTree);
  if (likely !== undefined && path.dirname(likely) === records && recordsWorktree(likely, wanted)) return likely;
  let names: string[];
  try {
    names = fs.readdirSync(records);
  } catch {
    return null;
  }
  const record = names.map((name) => path.join(records, name)).find((candidate) => recordsWorktree(candidate, wanted));
  return record === undefined ? null : realOrSame(record);
}

/**
 * The linked worktree at `workTree` through the git dir `<common dir>/worktrees/…` records for it,
 * once its `.git` is seen to name that git dir; refused, saying why and what to do, when it does
 * not. Null when the repository keeps no record of it (git worktree prune dropped it).
 */
function recordedCheckout(commonDir: string, workTree: string, repo: string): RecordedCheckout | null {
  const named = namedByDotGit(workTree);
  const gitDir = recordedGitDir(commonDir, workTree, 'gitDir' in named ? named.gitDir : undefined);
  if (!gitDir) return null;
  if ('problem' in named || named.gitDir !== gitDir) {
    const found = 'problem' in named ? named.problem : `its .git file names ${named.gitDir}`;
    fail(
      'invalid-state',
      `${workTree}/.git no longer points to the repository's record of this worktree (${gitDir}): ${found}. Drover runs no git there while it does not, since a git dir planted there decides what git runs. ` +
        `See what changed it, then run git worktree repair ${workTree} in ${repo}.`,
    );
  }
  return { workTree, gitDir };
}

/** The same, refused when the repository keeps no record of the worktree, with `ifUnrecorded` saying what to do. */
function checkedCheckout(commonDir: string, workTree: string, repo: string, ifUnrecorded: string): RecordedCheckout {
  return (
    recordedCheckout(commonDir, workTree, repo) ??
    fail('invalid-state', `The repository at ${repo} has no record of the worktree ${workTree} any more (git worktree prune drops the record of a worktree it cannot find). ${ifUnrecorded}`)
  );
}

/** What to do with an agent's worktree the repository no longer records: removing the agent goes ahead without it. */
const removeUnrecorded = (worktree: Worktree) =>
  `Remove the agent: its branch ${worktree.branch} is kept, and ${worktree.path} is left as it is for you to save what you need from it.`;

/**
 * Where Drover's git runs in a checkout `git worktree list` named (`entries`, the main checkout
 * first): the repository's main checkout as it is (the person's own), any other through its
 * recorded git dir, since it may be an agent's worktree (the parent branch checked out in one).
 */
function placeAmong(commonDir: string, entries: readonly WorktreeEntry[], folder: string): GitPlace {
  const main = entries[0]?.path ?? folder;
  return folder === main ? folder : checkedCheckout(commonDir, folder, main, 'Run git worktree prune in the project, or check the branch out elsewhere.');
}

/** Another checkout of the repository an agent's recorded `checkout` belongs to (its git dir's `commondir` names the repository's). */
export function checkoutBeside(checkout: RecordedCheckout, entries: readonly WorktreeEntry[], folder: string): GitPlace {
  return placeAmong(path.resolve(checkout.gitDir, firstLine(path.join(checkout.gitDir, 'commondir')) || '.'), entries, folder);
}

/**
 * Agents' worktrees as Drover's own git reaches them: through the git dir the main repository
 * records for each, never through the `.git` file in the folder, which the agent can rewrite (to a
 * git dir of its own whose config runs commands). A `.git` that no longer names the record is
 * refused, saying so: Drover runs no git there until it is put back.
 */
export class WorktreeCheckouts {
  /** The repository's own git dir, by project folder: read once, not for every command. */
  private readonly commonDirs = new Map<string, string>();

  constructor(
    private readonly git: Git,
    private readonly projects: ProjectRegistry,
  ) {}

  async of(worktree: Worktree): Promise<RecordedCheckout> {
    const repo = this.projects.get(worktree.projectId).path;
    return checkedCheckout(await this.commonDirOf(repo), worktree.path, repo, removeUnrecorded(worktree));
  }

  /** The same, blocking: for the boot reconciliation. */
  ofSync(worktree: Worktree): RecordedCheckout {
    const repo = this.projects.get(worktree.projectId).path;
    return checkedCheckout(this.commonDirSync(repo), worktree.path, repo, removeUnrecorded(worktree));
  }

  /** The same, or null when the repository keeps no record of the worktree any more. */
  async recordedOf(worktree: Worktree): Promise<RecordedCheckout | null> {
    const repo = this.projects.get(worktree.projectId).path;
    return recordedCheckout(await this.commonDirOf(repo), worktree.path, repo);
  }

  /**
   * The git dir of a checkout of `repo` that `git worktree list` named (`entries`, the main
   * checkout first), as the repository records it: its own git dir for the main checkout, the
   * record under `<common dir>/worktrees/` for any other, whatever that checkout's `.git` says.
   * Null when the repository keeps no record of it. Blocking: for the boot reconciliation.
   */
  gitDirAmongSync(repo: string, entries: readonly WorktreeEntry[], folder: string): string | null {
    const commonDir = this.commonDirSync(repo);
    return folder === entries[0]?.path ? commonDir : recordedGitDir(commonDir, folder);
  }

  /** The repository's own git dir (its common dir), read once per project folder. Blocking: for the boot reconciliation. */
  commonDirSync(repo: string): string {
    return this.commonDirs.get(repo) ?? this.remember(repo, this.git.runSync(repo, COMMON_DIR).stdout);
  }

  /** Where Drover's git runs in a checkout of `repo` that `git worktree list` named (`entries`). */
  async among(repo: string, entries: readonly WorktreeEntry[], folder: string): Promise<GitPlace> {
    return placeAmong(await this.commonDirOf(repo), entries, folder);
  }

  /** The repository's own git dir (its common dir), read once per project folder. */
  async commonDirOf(repo: string): Promise<string> {
    return this.commonDirs.get(repo) ?? this.remember(repo, (await this.git.run(repo, COMMON_DIR)).stdout);
  }

  private remember(repo: string, printed: string): string {
    const commonDir = printed.trim();
    this.commonDirs.set(repo, commonDir);
    return commonDir;
  }
}
