import type { Git, GitPlace } from './runner';

const FALLBACK_IDENTITY = {
  GIT_AUTHOR_NAME: 'Drover',
  GIT_AUTHOR_EMAIL: 'drover@localhost',
  GIT_COMMITTER_NAME: 'Drover',
  GIT_COMMITTER_EMAIL: 'drover@localhost',
};

/**
 * Runs a command that writes a commit under the person's own git identity, or Drover's when git
 * has none configured (a fresh machine must not make saving work fail).
 */
export async function runCommitting(git: Git, place: GitPlace, args: readonly string[]): Promise<string> {
  const identity = await git.run(place, ['var', 'GIT_COMMITTER_IDENT'], { okCodes: [0, 128] });
  return (await git.run(place, args, identity.code === 0 ? {} : { env: FALLBACK_IDENTITY })).stdout;
}
