import type { Git, GitPlace } from './runner';

/** Paths named by `git status --porcelain -z` (a rename names its new path). */
export function parseStatusPaths(output: string): string[] {
  const paths: string[] = [];
  const fields = output.split('\0');
  for (let i = 0; i < fields.length; i++) {
    const field = fields[i] as string;
    if (field.length < 4) continue;
    paths.push(field.slice(3));
    // A rename or copy is followed by its old path.
    if (field[0] === 'R' || field[0] === 'C') i++;
  }
  return paths;
}

/**
 * Git inside a submodule is never asked whether its files changed (its config is the agent's to
 * write): a submodule counts as changed when its checked-out commit is another.
 */
export const SUBMODULES_BY_COMMIT = '--ignore-submodules=dirty';

/** Files with uncommitted changes in a checkout: tracked ones, and untracked ones unless `trackedOnly`. */
export async function uncommittedPaths(git: Git, checkout: GitPlace, { trackedOnly = false } = {}): Promise<string[]> {
  const untracked = trackedOnly ? '--untracked-files=no' : '--untracked-files=all';
  return parseStatusPaths((await git.run(checkout, ['status', '--porcelain', '-z', untracked, SUBMODULES_BY_COMMIT])).stdout);
}
