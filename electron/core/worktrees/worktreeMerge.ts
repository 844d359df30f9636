import type { MergeCheck, MergeStrategy, Worktree } from '../../../shared/entities/worktrees';
import { countOf, listNames } from '../../../shared/plural';
import { fail } from '../errors';
import { aheadBehind, branchExists, currentBranch } from '../git/branches';
import { runCommitting } from '../git/commit';
import { splitNul } from '../git/nulFields';
import { commitOf, mergeBase } from '../git/revisions';
import type { Git, GitPlace, RecordedCheckout } from '../git/runner';
import { uncommittedPaths } from '../git/status';
import { checkoutOf, worktreeList } from '../git/worktreeList';
import { checkoutBeside } from './worktreeCheckouts';

interface MergeTree {
  tree: string;
  conflicts: string[];
}

/** `git merge-tree --write-tree` of two commits (full ref names or ids): the merged tree and the conflicted files, written to no checkout. */
export async function mergeTree(git: Git, place: GitPlace, ours: string, theirs: string): Promise<MergeTree> {
  const result = await git.run(place, ['merge-tree', '--write-tree', '--name-only', '--no-messages', '-z', '--end-of-options', ours, theirs], {
    okCodes: [0, 1],
  });
  const [tree = '', ...conflicted] = splitNul(result.stdout);
  return { tree: tree.trim(), conflicts: result.code === 0 ? [] : [...new Set(conflicted)] };
}

export interface MergeInspection {
  check: MergeCheck;
  tree: string;
  /** Where git runs in the parent's checkout, if it has one (it may be another agent's worktree). */
  parentPlace: GitPlace | null;
}

type Findings = Omit<MergeCheck, 'problem'> & { checkedOut: string | null };

/**
 * What merging the worktree's branch into its parent would do, without touching any checkout:
 * conflicts from git merge-tree, uncommitted files in the worktree (a merge takes commits only),
 * and uncommitted changes in the parent's checkout to files the merge would change.
 */
export async function inspectMerge(git: Git, checkout: RecordedCheckout, worktree: Worktree, agentName: string): Promise<MergeInspection> {
  const { parentBranch: parent, branch } = worktree;
  if (!(await branchExists(git, checkout, parent))) fail('not-found', `The parent branch ${parent} no longer exists; there is nothing to merge into.`);
  const [{ ahead, behind }, merged, uncommitted, entries, base, checkedOut] = await Promise.all([
    aheadBehind(git, checkout, parent, branch),
    mergeTree(git, checkout, `refs/heads/${parent}`, `refs/heads/${branch}`),
    uncommittedPaths(git, checkout),
    worktreeList(git, checkout),
    mergeBase(git, checkout, `refs/heads/${parent}`, `refs/heads/${branch}`),
    currentBranch(git, checkout),
  ]);
  const parentCheckout = checkoutOf(entries, parent)?.path ?? null;
  const parentPlace = parentCheckout === null ? null : checkoutBeside(checkout, entries, parentCheckout);
  let blockingFiles: string[] = [];
  if (parentPlace && base) {
    const changed = new Set(
      splitNul((await git.run(checkout, ['-c', 'core.quotePath=false', 'diff', '--name-only', '-z', '--no-renames', '--end-of-options', base, `refs/heads/${branch}`])).stdout),
    );
    blockingFiles = (await uncommittedPaths(git, parentPlace)).filter((file) => changed.has(file));
  }
  const findings: Findings = {
    agentId: worktree.agentId,
    branch,
    parentBranch: parent,
    ahead,
    behind,
    conflicts: merged.conflicts,
    parentCheckout,
    blockingFiles,
    uncommittedFiles: uncommitted.length,
    checkedOut,
  };
  const { checkedOut: _checkedOut, ...check } = findings;
  return { check: { ...check, problem: mergeProblem(findings, agentName) }, tree: merged.tree, parentPlace };
}

function mergeProblem(check: Findings, agentName: string): string | null {
  const { branch, parentBranch: parent } = check;
  if (check.checkedOut !== branch) {
    return `${agentName}'s worktree has ${check.checkedOut ? `branch ${check.checkedOut}` : 'a detached HEAD'} checked out, not its branch ${branch}; check out ${branch} there first.`;
  }
  if (check.conflicts.length > 0) {
    return `Merging ${branch} into ${parent} conflicts in ${countOf(check.conflicts.length, 'file')}: ${listNames(check.conflicts)}. Hand it back to ${agentName} to rebase on ${parent} and resolve them.`;
  }
  if (check.uncommittedFiles > 0) {
    return `${countOf(check.uncommittedFiles, 'file')} in ${agentName}'s worktree ${check.uncommittedFiles === 1 ? 'is' : 'are'} not committed, and a merge takes commits only. Commit them first (or ask ${agentName} to).`;
  }
  if (check.ahead === 0) return `Nothing to merge: ${branch} has no commits that ${parent} lacks.`;
  if (check.blockingFiles.length > 0) {
    return `${parent}'s checkout at ${check.parentCheckout ?? ''} has uncommitted changes to files the merge changes: ${listNames(check.blockingFiles)}. Commit or stash them there first.`;
  }
  return null;
}

/** Moves the parent branch to `commit`, updating its checkout (at `parentPlace`, if it has one) as a fast-forward. */
async function advanceParent(git: Git, place: GitPlace, parentPlace: GitPlace | null, check: MergeCheck, commit: string, previousTip: string): Promise<void> {
  if (parentPlace) {
    await git.run(parentPlace, ['merge', '--ff-only', '--quiet', '--end-of-options', commit]);
    return;
  }
  await git.run(place, ['update-ref', '-m', `drover: merge ${check.branch}`, '--end-of-options', `refs/heads/${check.parentBranch}`, commit, previousTip]);
}

function squashMessage(check: MergeCheck, subjects: readonly string[]): string {
  const list = subjects.map((subject) => `* ${subject}`).join('\n');
  return `Merge ${check.branch} (${countOf(subjects.length, 'commit')}, squashed)\n\n${list}\n`;
}

/** The branch and parent tips a merge starts from: journalled before it changes anything, so a boot after a crash can tell its rebase. */
export interface MergeStart {
  branchTip: string;
  onto: string;
}

/** The tips a merge found and the inspection it went on: refused while the inspection finds something in the way. */
async function startMerge(git: Git, checkout: RecordedCheckout, worktree: Worktree, agentName: string, expected: MergeStart | undefined, starting: (start: MergeStart) => void) {
  const inspection = await inspectMerge(git, checkout, worktree, agentName);
  const { check } = inspection;
  if (check.problem) fail(check.conflicts.length > 0 ? 'conflict' : 'invalid-state', check.problem);
  const [parentTip, branchTip] = (await Promise.all([commitOf(git, checkout, `refs/heads/${check.parentBranch}`), commitOf(git, checkout, `refs/heads/${check.branch}`)])) as [string, string];
  if (expected && (expected.onto !== parentTip || expected.branchTip !== branchTip)) {
    fail('conflict', `${check.parentBranch} or ${check.branch} moved since ${check.branch} was checked; nothing changed.`);
  }
  starting({ branchTip, onto: parentTip });
  return { ...inspection, parentTip, branchTip };
}

/** Replays the branch's commits on `onto` in the agent's worktree; a conflict between them aborts it, changing nothing. */
async function rebaseBranch(git: Git, checkout: RecordedCheckout, check: MergeCheck, onto: string, agentName: string): Promise<void> {
  // Onto the tip just read (not the ref), so the rebase's own record names the journalled commit.
  const rebase = await git.run(checkout, ['rebase', '--quiet', '--end-of-options', onto, check.branch], { okCodes: [0, 1, 128], env: { GIT_EDITOR: 'true' } });
  if (rebase.code === 0) return;
  await git.run(checkout, ['rebase', '--abort'], { okCodes: [0, 1, 128] });
  fail('conflict', `Rebasing ${check.branch} on ${check.parentBranch} stopped on a conflict between its commits, though the merged result has none; nothing changed. Merge with squash instead, or hand it back to ${agentName}.`);
}

/**
 * Rebases the worktree's branch on its parent's tip without moving the parent (the merge queue
 * checks the result before it lands), refused as a merge is. Returns the tips it is then at.
 */
export async function rebaseOnParent(git: Git, checkout: RecordedCheckout, worktree: Worktree, agentName: string, starting: (start: MergeStart) => void): Promise<MergeStart> {
  const { check, parentTip } = await startMerge(git, checkout, worktree, agentName, undefined, starting);
  if (check.behind > 0) await rebaseBranch(git, checkout, check, parentTip, agentName);
  return { branchTip: (await commitOf(git, checkout, `refs/heads/${check.branch}`)) as string, onto: parentTip };
}

/**
 * Merges the worktree's branch into its parent once the inspection finds nothing in the way:
 * `rebase` replays the branch on the parent in the agent's worktree, then fast-forwards the parent;
 * `squash` writes the merged tree as one commit on the parent and moves the branch to it (its
 * worktree is clean, so nothing of it is lost). `starting` is told the tips before the first change;
 * with `expected`, it is refused unless the tips are still those.
 * Returns the parent's new tip.
 */
export async function mergeIntoParent(
  git: Git,
  checkout: RecordedCheckout,
  worktree: Worktree,
  agentName: string,
  strategy: MergeStrategy,
  message: string | undefined,
  starting: (start: MergeStart) => void,
  expected?: MergeStart,
): Promise<{ commit: string; commits: number }> {
  const { check, tree, parentPlace, parentTip } = await startMerge(git, checkout, worktree, agentName, expected, starting);
  const parentRef = `refs/heads/${check.parentBranch}` as const;
  const branchRef = `refs/heads/${check.branch}` as const;
  let commit: string;
  if (strategy === 'rebase') {
    if (check.behind > 0) await rebaseBranch(git, checkout, check, parentTip, agentName);
    commit = (await commitOf(git, checkout, branchRef)) as string;
  } else {
    const subjects = (await git.run(checkout, ['log', '--reverse', '--format=%s', '--end-of-options', `${parentRef}..${branchRef}`])).stdout.split('\n').filter((line) => line.length > 0);
    commit = (await runCommitting(git, checkout, ['commit-tree', '-p', parentTip, '-m', message ?? squashMessage(check, subjects), '--end-of-options', tree])).trim();
  }
  await advanceParent(git, checkout, parentPlace, check, commit, parentTip);
  // The squashed commit holds all of the branch's work; the branch continues from it. (git reset
  // takes no --end-of-options; `commit` is the id commit-tree printed.)
  if (strategy === 'squash') await git.run(checkout, ['reset', '--keep', '--quiet', commit]);
  return { commit, commits: check.ahead };
}
