import type { Git, GitPlace } from './runner';

/**
 * The commit `rev` names, or null when it names none. git rev-parse learnt --end-of-options only in
 * 2.44, so `rev` is a full ref name or HEAD, which never starts with "-".
 */
export async function commitOf(git: Git, place: GitPlace, rev: `refs/${string}` | 'HEAD'): Promise<string | null> {
  const result = await git.run(place, ['rev-parse', '--verify', '--quiet', `${rev}^{commit}`], { okCodes: [0, 1, 128] });
  return result.code === 0 ? result.stdout.trim() : null;
}

export async function mergeBase(git: Git, place: GitPlace, a: string, b: string): Promise<string | null> {
  const result = await git.run(place, ['merge-base', '--end-of-options', a, b], { okCodes: [0, 1, 128] });
  return result.code === 0 ? result.stdout.trim() : null;
}
