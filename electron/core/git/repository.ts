import { fail } from '../errors';
import type { Git } from './runner';

/** The top folder of the repository holding `folder`, or null when it is not in one. */
export async function repositoryRoot(git: Git, folder: string): Promise<string | null> {
  const result = await git.run(folder, ['rev-parse', '--show-toplevel'], { okCodes: [0, 128] });
  return result.code === 0 ? result.stdout.trim() : null;
}

export async function requireRepositoryRoot(git: Git, folder: string): Promise<string> {
  const root = await repositoryRoot(git, folder);
  if (root === null) {
    fail(
      'invalid-state',
      `${folder} is not in a git repository, so its agents cannot have their own worktrees. Run git init there and commit, or let the agent work in the project folder.`,
    );
  }
  return root;
}
