import fs from 'node:fs';
import path from 'node:path';
import type { Worktree } from '../../../shared/entities/worktrees';
import type { Git } from '../git/runner';
import { parseWorktreeList } from '../git/worktreeList';

/** A folder `git worktree add` made: its `.git` is a file pointing into the repository, or it is still empty. */
function isCheckoutGitMade(folder: string): boolean {
  try {
    if (fs.readdirSync(folder).length === 0) return true;
    return fs.readFileSync(path.join(folder, '.git'), 'utf8').startsWith('gitdir:');
  } catch {
    return false;
  }
}

/**
 * Undoes a worktree that was being made (creation failed, or the host died during it): its folder
 * and git's record of it go, and its branch goes if Drover made it and nothing was committed on it.
 * Nobody worked in it yet (an agent starts only in a ready worktree), so nothing is lost.
 *
 * It blocks: it runs at boot, before anything is served, and on the rare failed creation.
 */
export function undoWorktreeCreation(git: Git, repoFolder: string, worktree: Worktree, log: (line: string) => void): void {
  if (worktree.ownsFolder) {
    const known = parseWorktreeList(git.runSync(repoFolder, ['worktree', 'list', '--porcelain', '-z']).stdout).some((entry) => entry.path === worktree.path);
    // Twice forced: git locks a worktree while it is being added.
    if (known) git.runSync(repoFolder, ['worktree', 'remove', '--force', '--force', '--end-of-options', worktree.path], { okCodes: [0, 128] });
    if (fs.existsSync(worktree.path)) {
      if (isCheckoutGitMade(worktree.path)) fs.rmSync(worktree.path, { recursive: true, force: true });
      else log(`left ${worktree.path} in place: it does not look like the checkout Drover was making`);
    }
    git.runSync(repoFolder, ['worktree', 'prune']);
  }
  if (worktree.ownsBranch) {
    const tip = git.runSync(repoFolder, ['rev-parse', '--verify', '--quiet', `refs/heads/${worktree.branch}`], { okCodes: [0, 1, 128] });
    if (tip.code === 0 && tip.stdout.trim() === worktree.baseCommit) git.runSync(repoFolder, ['branch', '-D', '--end-of-options', worktree.branch]);
    else if (tip.code === 0) log(`kept branch ${worktree.branch}: it has commits beyond the one it was made from`);
  }
}
