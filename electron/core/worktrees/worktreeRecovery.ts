import fs from 'node:fs';
import path from 'node:path';
import type { Worktree } from '../../../shared/entities/worktrees';
import { DroverRequestError } from '../errors';
import { GitActivity } from '../git/gitActivity';
import type { Git, RecordedCheckout } from '../git/runner';
import { checkoutOf, parseWorktreeList, type WorktreeEntry } from '../git/worktreeList';
import { listLivePids } from '../process/processGroup';
import type { WorktreeOperation } from '../storage/worktreeStore';
import { isCheckout } from '../workspaces/agentWorkspace';
import { realOrSame, type WorktreeCheckouts } from './worktreeCheckouts';

type MergeJournal = Extract<WorktreeOperation, { kind: 'merging' }>;

/** Where git keeps a rebase's state in a checkout's git dir (the merge backend, and the older apply one). */
const REBASE_STATE_FOLDERS = ['rebase-merge', 'rebase-apply'];

function readTrimmed(file: string): string {
  try {
    return fs.readFileSync(file, 'utf8').trim();
  } catch {
    return '';
  }
}

/** The lock files git takes in a checkout's own git dir: index.lock, HEAD.lock, ORIG_HEAD.lock and the like. */
function locksIn(gitDir: string): string[] {
  try {
    return fs
      .readdirSync(gitDir)
      .filter((name) => name.endsWith('.lock'))
      .map((name) => path.join(gitDir, name));
  } catch {
    return [];
  }
}

/**
 * Boot, after a crash: what a killed git left in a repository's worktrees is put right, but only
 * where no git works any more. A lock is stale when it is a file this user owns, no process holds it
 * open, and no live git of this user (or root) has its folder in one of the repository's checkouts
 * or its git dir: git takes a lock with O_EXCL and removes it when it ends (also on SIGTERM or
 * SIGHUP), so a lock outliving every git that could be working there was left by one that was
 * killed, and none started since could have taken it while it was there. Drover's own git runs
 * none then: the boot reconciliation runs before anything is served. Where git still works,
 * nothing is touched and the next boot looks again.
 */
export class WorktreeRecovery {
  private readonly activity = new GitActivity(listLivePids);
  private entries: WorktreeEntry[] | null = null;
  private folders: string[] | null = null;

  constructor(
    private readonly git: Git,
    private readonly checkouts: WorktreeCheckouts,
    private readonly repo: string,
    private readonly log: (line: string) => void,
  ) {}

  /**
   * Finishes deleting the folder of a removal the crash cut short: the journal says everything in
   * it was committed onto the branch, or was to be discarded. False when git still works there.
   */
  finishRemoval(worktree: Worktree): boolean {
    if (!worktree.ownsFolder || !fs.existsSync(worktree.path)) return true;
    if (this.gitAtWork([worktree.path], `the half-removed ${worktree.path}`)) return false;
    if (isCheckout(worktree.path)) this.git.runSync(this.repo, ['worktree', 'remove', '--force', '--force', '--end-of-options', worktree.path], { okCodes: [0, 128] });
    fs.rmSync(worktree.path, { recursive: true, force: true });
    this.log(`finished removing ${worktree.path}, which Drover was removing when it stopped (its work had been committed onto ${worktree.branch}, which is kept)`);
    return true;
  }

  /**
   * Makes a worktree git can work in again: the stale locks in its git dir go (with a merge
   * journalled, those of the parent's checkout and both branches too), and the rebase Drover's
   * merge started is aborted. A rebase someone else started is left alone. False when git still
   * works in the repository, a lock stays, or the worktree's .git no longer points to its record.
   */
  recover(worktree: Worktree, operation: WorktreeOperation | null): boolean {
    const checkout = this.recordedCheckout(worktree);
    if (!checkout) return false;
    const merging = operation?.kind === 'merging' ? operation : null;
    const locks = locksIn(checkout.gitDir);
    if (merging) locks.push(...this.mergeLocks(worktree));
    if (!this.clearStaleLocks(locks, worktree.path)) return false;
    return merging ? this.abortDroversRebase(worktree, checkout, merging) : true;
  }

  /** Where the branch left its parent now (what a merge the crash cut short did, or did not, move). */
  baseOf(worktree: Worktree): string | null {
    const base = this.git.runSync(this.repo, ['merge-base', '--end-of-options', `refs/heads/${worktree.parentBranch}`, `refs/heads/${worktree.branch}`], { okCodes: [0, 1, 128] });
    return base.code === 0 ? base.stdout.trim() : null;
  }

  private clearStaleLocks(locks: readonly string[], worktreePath: string): boolean {
    const present = locks.filter((lock) => fs.lstatSync(lock, { throwIfNoEntry: false })?.isFile());
    if (present.length === 0) return true;
    if (this.gitAtWork([worktreePath], present.join(', '))) return false;
    let cleared = true;
    for (const lock of present) {
      const holder = this.activity.holderOf(lock);
      const owner = fs.lstatSync(lock).uid;
      if (holder !== undefined || owner !== process.getuid?.()) {
        this.log(`left ${lock} in place: ${holder !== undefined ? `process ${holder} holds it open` : 'another user owns it'}`);
        cleared = false;
        continue;
      }
      fs.unlinkSync(lock);
      this.log(`removed a stale ${lock}: no running git held it (the git that took it was killed with Drover)`);
    }
    return cleared;
  }

  /** True (and says so) when a live git works in the repository or in `more`. */
  private gitAtWork(more: readonly string[], what: string): boolean {
    const working = this.activity.gitIn([...this.repositoryFolders(), ...more.map(realOrSame)]);
    if (!working) return false;
    this.log(`left ${what} as it is: git (pid ${working.pid}) is at work ${working.cwd ? `in ${working.cwd}` : 'where Drover cannot see'}; the next start looks again`);
    return true;
  }

  /** The worktree through its recorded git dir; null (and said) when its .git was pointed elsewhere. */
  private recordedCheckout(worktree: Worktree): RecordedCheckout | null {
    try {
      return this.checkouts.ofSync(worktree);
    } catch (error) {
      if (!(error instanceof DroverRequestError)) throw error;
      this.log(`left ${worktree.path} as it is: ${error.message}`);
      return null;
    }
  }

  private abortDroversRebase(worktree: Worktree, checkout: RecordedCheckout, merging: MergeJournal): boolean {
    for (const name of REBASE_STATE_FOLDERS) {
      const state = path.join(checkout.gitDir, name);
      if (!fs.existsSync(state)) continue;
      const ours =
        readTrimmed(path.join(state, 'head-name')) === `refs/heads/${worktree.branch}` &&
        readTrimmed(path.join(state, 'orig-head')) === merging.branchTip &&
        readTrimmed(path.join(state, 'onto')) === merging.onto;
      if (!ours) {
        this.log(`left the rebase in progress in ${worktree.path}: Drover did not start it`);
        return true;
      }
      const abort = this.git.runSync(checkout, ['rebase', '--abort'], { okCodes: [0, 1, 128] });
      if (abort.code !== 0) {
        this.log(`could not abort the rebase in ${worktree.path}: ${abort.stderr.trim().split('\n')[0] ?? ''}`);
        return false;
      }
      this.log(
        `aborted the rebase of ${worktree.branch} that Drover's merge had started when Drover stopped: ${worktree.branch} is back at ${merging.branchTip.slice(0, 12)}, ${worktree.parentBranch} was not moved`,
      );
    }
    return true;
  }

  /**
   * The locks a merge takes outside the worktree: the parent checkout's index and HEAD, and both
   * branches' refs. The parent checkout's git dir is the one the repository records for it (it may
   * be another agent's worktree, whose `.git` that agent can point at another repository's).
   */
  private mergeLocks(worktree: Worktree): string[] {
    const refs = [worktree.parentBranch, worktree.branch].map((branch) => path.join(this.commonDir(), 'refs', 'heads', `${branch}.lock`));
    const entries = this.worktreeEntries();
    const parentCheckout = checkoutOf(entries, worktree.parentBranch);
    const parentGitDir = parentCheckout ? this.checkouts.gitDirAmongSync(this.repo, entries, parentCheckout.path) : null;
    return parentGitDir ? [...refs, path.join(parentGitDir, 'index.lock'), path.join(parentGitDir, 'HEAD.lock')] : refs;
  }

  private commonDir(): string {
    return this.checkouts.commonDirSync(this.repo);
  }

  private worktreeEntries(): WorktreeEntry[] {
    this.entries ??= parseWorktreeList(this.git.runSync(this.repo, ['worktree', 'list', '--porcelain', '-z']).stdout);
    return this.entries;
  }

  /** Every checkout of the repository and its git dir, where a git at work would have its folder. */
  private repositoryFolders(): string[] {
    if (!this.folders) {
      this.folders = [...this.worktreeEntries().map((entry) => entry.path), this.commonDir()].map(realOrSame);
    }
    return this.folders;
  }
}
