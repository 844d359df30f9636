import { fail } from '../errors';
import type { Git, GitPlace } from './runner';

/** The branch checked out in `folder`; null on a detached HEAD. */
export async function currentBranch(git: Git, place: GitPlace): Promise<string | null> {
  const result = await git.run(place, ['symbolic-ref', '--quiet', '--short', '--end-of-options', 'HEAD'], { okCodes: [0, 1, 128] });
  return result.code === 0 ? result.stdout.trim() : null;
}

export async function localBranches(git: Git, folder: string): Promise<string[]> {
  const result = await git.run(folder, ['for-each-ref', '--format=%(refname:short)', '--end-of-options', 'refs/heads']);
  return result.stdout.split('\n').filter((name) => name.length > 0);
}

export async function branchExists(git: Git, place: GitPlace, branch: string): Promise<boolean> {
  const result = await git.run(place, ['show-ref', '--verify', '--quiet', '--end-of-options', `refs/heads/${branch}`], { okCodes: [0, 1] });
  return result.code === 0;
}

/**
 * Refuses a branch name git would read as an option (a leading "-": `--exec=…` given to git rebase
 * runs a command) or that git does not take as a branch name. check-ref-format must also give the
 * name back unchanged: it expands `@{-1}` to another branch.
 */
export async function requireBranchName(git: Git, folder: string, branch: string): Promise<void> {
  if (branch.startsWith('-')) {
    fail('bad-request', `The branch name ${branch} starts with "-", so git would read it as an option: rename the branch first (git branch -m -- '${branch}' NEW-NAME); Drover does not use such names.`);
  }
  const check = await git.run(folder, ['check-ref-format', '--branch', branch], { okCodes: [0, 1, 128] });
  if (check.code !== 0 || check.stdout.trim() !== branch) fail('bad-request', `${branch} is not a valid branch name.`);
}

/** Commits on `branch` that `parent` lacks (ahead) and the other way round (behind). */
export async function aheadBehind(git: Git, place: GitPlace, parent: string, branch: string): Promise<{ ahead: number; behind: number }> {
  const result = await git.run(place, ['rev-list', '--left-right', '--count', '--end-of-options', `refs/heads/${parent}...refs/heads/${branch}`]);
  const [behind, ahead] = result.stdout.trim().split(/\s+/).map(Number);
  return { ahead: ahead ?? 0, behind: behind ?? 0 };
}
