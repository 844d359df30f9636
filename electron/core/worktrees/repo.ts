import fs from 'node:fs';
import path from 'node:path';
import { fail } from '../errors';
import { workTreeOf, type Git, type GitPlace } from './git';

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

/** NUL-separated names, without the empty tail. */
export function splitNul(output: string): string[] {
  return output.split('\0').filter((name) => name.length > 0);
}

/** A gitlink's mode: a submodule's entry in a tree or an index. */
export const SUBMODULE_MODE = '160000';

/** One path of `git diff-tree -r -z --raw --no-renames`: its mode on each side (000000 where it is not) and its object after. */
export interface RawChange {
  path: string;
  modeBefore: string;
  modeAfter: string;
  objectAfter: string;
}

/** Parses `git diff-tree -r -z --raw --no-renames`: `:<mode> <mode> <object> <object> <status>`, then the path. */
export function parseRawDiff(output: string): RawChange[] {
  const fields = splitNul(output);
  const changes: RawChange[] = [];
  for (let i = 0; i + 1 < fields.length; i += 2) {
    const [modeBefore = '', modeAfter = '', , objectAfter = ''] = (fields[i] as string).slice(1).split(' ');
    changes.push({ path: fields[i + 1] as string, modeBefore, modeAfter, objectAfter });
  }
  return changes;
}

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
 * The commit `rev` names, or null when it names none. git rev-parse learnt --end-of-options only in
 * 2.44, so `rev` is a full ref name or HEAD, which never starts with "-".
 */
export async function commitOf(git: Git, place: GitPlace, rev: `refs/${string}` | 'HEAD'): Promise<string | null> {
  const result = await git.run(place, ['rev-parse', '--verify', '--quiet', `${rev}^{commit}`], { okCodes: [0, 1, 128] });
  return result.code === 0 ? result.stdout.trim() : null;
}

export async function worktreeList(git: Git, place: GitPlace): Promise<WorktreeEntry[]> {
  return parseWorktreeList((await git.run(place, ['worktree', 'list', '--porcelain', '-z'])).stdout);
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

/** A submodule's entry in an index: `git ls-files --stage -z` lists it with mode 160000. */
function submoduleEntries(output: string): { path: string; commit: string }[] {
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

/** Paths as git's `-z --stdin` reads them: each ended by a NUL. */
export const nulList = (paths: readonly string[]): string => paths.map((file) => `${file}\0`).join('');

/** A gitlink's mode as an index file stores each entry's (32 bits, big-endian), whatever its version. */
const GITLINK_MODE_BYTES = Buffer.from([0x00, 0x00, 0xe0, 0x00]);

/**
 * False only when the index `env` names (else the checkout's own) certainly holds no submodule's
 * entry: no four bytes of it read as a gitlink's mode, and no shared index (core.splitIndex) keeps
 * entries elsewhere. Listing every entry to find out costs a checkpoint a git process of its own.
 */
async function mayHoldSubmodules(place: GitPlace, env: Record<string, string>): Promise<boolean> {
  if (typeof place === 'string') return true;
  if ((await fs.promises.readdir(place.gitDir)).some((name) => name.startsWith('sharedindex.'))) return true;
  try {
    return (await fs.promises.readFile(env.GIT_INDEX_FILE ?? path.join(place.gitDir, 'index'))).includes(GITLINK_MODE_BYTES);
  } catch (error) {
    // No index yet: nothing is staged, a submodule neither.
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  }
}

/**
 * Stages every file git does not ignore, as `git add --all` does, at the top of a work tree
 * (`env` may name another index). A submodule's entry is taken out first and put back after:
 * `git add` asks a git inside each submodule listed whether its files changed, and that git takes
 * its config (filters that run commands) from a git dir the agent can write there. Out of the
 * index, a submodule's folder is staged as its checked-out commit without asking it anything.
 */
export async function stageEverything(git: Git, place: GitPlace, env: Record<string, string> = {}): Promise<void> {
  const submodules = (await mayHoldSubmodules(place, env)) ? submoduleEntries((await git.run(place, ['ls-files', '--stage', '-z'], { env })).stdout) : [];
  if (submodules.length > 0) await git.run(place, ['update-index', '--force-remove', '-z', '--stdin'], { env, input: nulList(submodules.map((entry) => entry.path)) });
  await git.run(place, ['add', '--all'], { env });
  if (submodules.length === 0) return;
  // A submodule not checked out (its folder empty) is staged as nothing; it stays as it was, unless its folder went.
  const root = workTreeOf(place);
  const staged = splitNul((await git.run(place, ['ls-files', '-z', '--', ...submodules.map((entry) => entry.path)], { env })).stdout);
  const kept = submodules.filter(
    (entry) => !staged.some((file) => file === entry.path || file.startsWith(`${entry.path}/`)) && fs.lstatSync(path.join(root, entry.path), { throwIfNoEntry: false })?.isDirectory(),
  );
  if (kept.length > 0) await git.run(place, ['update-index', '--add', ...kept.flatMap((entry) => ['--cacheinfo', `${SUBMODULE_MODE},${entry.commit},${entry.path}`])], { env });
}

/** Commits on `branch` that `parent` lacks (ahead) and the other way round (behind). */
export async function aheadBehind(git: Git, place: GitPlace, parent: string, branch: string): Promise<{ ahead: number; behind: number }> {
  const result = await git.run(place, ['rev-list', '--left-right', '--count', '--end-of-options', `refs/heads/${parent}...refs/heads/${branch}`]);
  const [behind, ahead] = result.stdout.trim().split(/\s+/).map(Number);
  return { ahead: ahead ?? 0, behind: behind ?? 0 };
}

export async function mergeBase(git: Git, place: GitPlace, a: string, b: string): Promise<string | null> {
  const result = await git.run(place, ['merge-base', '--end-of-options', a, b], { okCodes: [0, 1, 128] });
  return result.code === 0 ? result.stdout.trim() : null;
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

/** The checkout where `branch` is checked out, if any. */
export function checkoutOf(entries: readonly WorktreeEntry[], branch: string): WorktreeEntry | undefined {
  return entries.find((entry) => entry.branch === branch && !entry.bare);
}

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
