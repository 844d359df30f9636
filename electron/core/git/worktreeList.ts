import type { Git, GitPlace } from './runner';

/** One entry of `git worktree list --porcelain -z`. */
export interface WorktreeEntry {
  path: string;
  head: string | null;
  /** The short branch name; null when detached or bare. */
  branch: string | null;
  bare: boolean;
  prunable: boolean;
}

/** Parses `git worktree list --porcelain -z`: attributes NUL-separated, entries ended by an empty one. */
export function parseWorktreeList(output: string): WorktreeEntry[] {
  const entries: WorktreeEntry[] = [];
  let current: WorktreeEntry | null = null;
  for (const field of output.split('\0')) {
    if (field === '') {
      if (current) entries.push(current);
      current = null;
      continue;
    }
    const space = field.indexOf(' ');
    const key = space < 0 ? field : field.slice(0, space);
    const value = space < 0 ? '' : field.slice(space + 1);
    if (key === 'worktree') current = { path: value, head: null, branch: null, bare: false, prunable: false };
    else if (!current) continue;
    else if (key === 'HEAD') current.head = value;
    else if (key === 'branch') current.branch = value.replace(/^refs\/heads\//, '');
    else if (key === 'bare') current.bare = true;
    else if (key === 'prunable') current.prunable = true;
  }
  if (current) entries.push(current);
  return entries;
}

export async function worktreeList(git: Git, place: GitPlace): Promise<WorktreeEntry[]> {
  return parseWorktreeList((await git.run(place, ['worktree', 'list', '--porcelain', '-z'])).stdout);
}

/** The checkout where `branch` is checked out, if any. */
export function checkoutOf(entries: readonly WorktreeEntry[], branch: string): WorktreeEntry | undefined {
  return entries.find((entry) => entry.branch === branch && !entry.bare);
}
