import fs from 'node:fs';
import path from 'node:path';
import { splitNul } from './nulFields';
import { workTreeOf, type Git, type GitPlace } from './runner';

/** A gitlink's mode: a submodule's entry in a tree or an index. */
export const SUBMODULE_MODE = '160000';

/** A submodule's entry in an index: `git ls-files --stage -z` lists it with mode 160000. */
export function submoduleEntries(output: string): { path: string; commit: string }[] {
  return splitNul(output)
    .filter((entry) => entry.startsWith(`${SUBMODULE_MODE} `))
    .map((entry) => ({ commit: entry.slice(7, entry.indexOf(' ', 7)), path: entry.slice(entry.indexOf('\t') + 1) }));
}

/** Whether `folder` holds anything: a submodule's folder does once it is checked out. */
export function holdsAnything(folder: string): boolean {
  try {
    return fs.readdirSync(folder).length > 0;
  } catch {
    return false;
  }
}

/** The submodules checked out in a work tree (their folders hold something), by path. */
export async function checkedOutSubmodules(git: Git, place: GitPlace): Promise<string[]> {
  const root = workTreeOf(place);
  const entries = submoduleEntries((await git.run(place, ['ls-files', '--stage', '-z'])).stdout);
  return entries.map((entry) => entry.path).filter((file) => holdsAnything(path.join(root, file)));
}
