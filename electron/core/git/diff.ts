import fs from 'node:fs';
import path from 'node:path';
import type { DiffOrigin, Worktree, WorktreeDiff, WorktreeDiffFile } from '../../../shared/entities/worktrees';
import { splitNul } from './nulFields';
import { commitOf, mergeBase } from './revisions';
import type { Git, GitPlace, RecordedCheckout } from './runner';
import { SUBMODULES_BY_COMMIT } from './status';

/** A file's patch larger than this is not sent (the list still counts its lines). */
export const MAX_FILE_PATCH_BYTES = 2 * 1024 * 1024;
/** Past this many bytes of patches in one diff, the rest are listed without their patch. */
export const MAX_DIFF_PATCH_BYTES = 24 * 1024 * 1024;
/** Git's own test for binary content: a NUL in the first 8000 bytes. */
const BINARY_PROBE_BYTES = 8000;

/**
 * Diff output that does not depend on the person's git config: no colour, no external diff or
 * textconv, a/ and b/ prefixes, paths as UTF-8, renames found.
 */
const DIFF_OPTIONS = ['--no-color', '--no-ext-diff', '--no-textconv', '--src-prefix=a/', '--dst-prefix=b/', '-M', SUBMODULES_BY_COMMIT];
const PLAIN_PATHS = ['-c', 'core.quotePath=false'];

const STATUS_BY_LETTER: Record<string, WorktreeDiffFile['status']> = {
  A: 'added',
  M: 'modified',
  D: 'deleted',
  R: 'renamed',
  C: 'copied',
  T: 'type-changed',
};

interface NameStatus {
  status: WorktreeDiffFile['status'];
  path: string;
  oldPath: string | null;
}

/** `git diff --name-status -z`: a status field, then one path (two for a rename or copy). */
export function parseNameStatus(output: string): NameStatus[] {
  const fields = output.split('\0');
  const entries: NameStatus[] = [];
  for (let i = 0; i + 1 < fields.length; ) {
    const letter = (fields[i] as string).charAt(0);
    if (!letter) break;
    const status = STATUS_BY_LETTER[letter] ?? 'modified';
    if (letter === 'R' || letter === 'C') {
      entries.push({ status, oldPath: fields[i + 1] as string, path: fields[i + 2] as string });
      i += 3;
    } else {
      entries.push({ status, oldPath: null, path: fields[i + 1] as string });
      i += 2;
    }
  }
  return entries;
}

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

/** Lines a file's patch adds and removes (`+++`/`---` header lines come before the first hunk). */
export function countPatchLines(patch: string): { additions: number; deletions: number; binary: boolean } {
  let additions = 0;
  let deletions = 0;
  let inHunks = false;
  for (const line of patch.split('\n')) {
    if (line.startsWith('@@')) inHunks = true;
    else if (!inHunks) {
      if (line.startsWith('Binary files ') || line === 'GIT binary patch') return { additions: 0, deletions: 0, binary: true };
    } else if (line.startsWith('+')) additions++;
    else if (line.startsWith('-')) deletions++;
  }
  return { additions, deletions, binary: false };
}

/** Where each path's uncommitted changes lie, from `git status --porcelain -z` (X: the index, Y: the working tree). */
export function parseStatusOrigins(output: string): { staged: Set<string>; unstaged: Set<string>; untracked: string[] } {
  const staged = new Set<string>();
  const unstaged = new Set<string>();
  const untracked: string[] = [];
  const fields = output.split('\0');
  for (let i = 0; i < fields.length; i++) {
    const field = fields[i] as string;
    if (field.length < 4) continue;
    const [x, y, file] = [field[0], field[1], field.slice(3)];
    if (x === '?') untracked.push(file);
    else {
      if (x !== ' ') staged.add(file);
      if (y !== ' ') unstaged.add(file);
    }
    // A rename or copy in the index is followed by its old path.
    if (x === 'R' || x === 'C') i++;
  }
  return { staged, unstaged, untracked };
}

/** Splits a multi-file unified diff into each file's part, in order. */
export function splitPatch(patch: string): string[] {
  if (!patch) return [];
  return patch.split(/^(?=diff --git )/m).filter((part) => part.startsWith('diff --git '));
}

/** A patch adding an untracked file, in git's format, with its line count. */
export function untrackedFilePatch(relativePath: string, content: Buffer, mode: number): { patch: string; additions: number; binary: boolean } {
  const fileMode = mode & 0o111 ? '100755' : '100644';
  const header = `diff --git a/${relativePath} b/${relativePath}\nnew file mode ${fileMode}\n`;
  if (content.subarray(0, BINARY_PROBE_BYTES).includes(0)) {
    return { patch: `${header}Binary files /dev/null and b/${relativePath} differ\n`, additions: 0, binary: true };
  }
  if (content.length === 0) return { patch: header, additions: 0, binary: false };
  const text = content.toString('utf8');
  const endsWithNewline = text.endsWith('\n');
  const lines = (endsWithNewline ? text.slice(0, -1) : text).split('\n');
  const body = lines.map((line) => `+${line}`).join('\n');
  const noNewline = endsWithNewline ? '' : '\n\\ No newline at end of file';
  return { patch: `${header}--- /dev/null\n+++ b/${relativePath}\n@@ -0,0 +1,${lines.length} @@\n${body}${noNewline}\n`, additions: lines.length, binary: false };
}

async function untrackedFile(root: string, relativePath: string): Promise<WorktreeDiffFile | null> {
  const absolute = path.join(root, relativePath);
  const stat = await fs.promises.lstat(absolute).catch(() => null);
  if (!stat || stat.isDirectory()) return null;
  const content = stat.isSymbolicLink() ? Buffer.from(await fs.promises.readlink(absolute)) : await readHead(absolute, MAX_FILE_PATCH_BYTES + 1);
  const tooLarge = content.length > MAX_FILE_PATCH_BYTES;
  const made = untrackedFilePatch(relativePath, tooLarge ? content.subarray(0, BINARY_PROBE_BYTES) : content, stat.mode);
  return {
    path: relativePath,
    oldPath: null,
    status: 'added',
    additions: tooLarge && !made.binary ? await countLines(absolute) : made.additions,
    deletions: 0,
    binary: made.binary,
    origins: ['untracked'],
    patch: tooLarge ? null : made.patch,
  };
}

async function readHead(file: string, bytes: number): Promise<Buffer> {
  const handle = await fs.promises.open(file, 'r');
  try {
    const buffer = Buffer.alloc(bytes);
    const { bytesRead } = await handle.read(buffer, 0, bytes, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

async function countLines(file: string): Promise<number> {
  let lines = 0;
  let last = 10;
  for await (const chunk of fs.createReadStream(file)) {
    const buffer = chunk as Buffer;
    for (const byte of buffer) if (byte === 10) lines++;
    last = buffer[buffer.length - 1] ?? last;
  }
  return last === 10 ? lines : lines + 1;
}

/** Lines all the files add and remove. */
export function lineTotals(files: readonly { additions: number; deletions: number }[]): { additions: number; deletions: number } {
  return { additions: files.reduce((sum, file) => sum + file.additions, 0), deletions: files.reduce((sum, file) => sum + file.deletions, 0) };
}

/** Sends patches until the diff's budget is spent; the rest are listed without theirs. */
export function withinBudget(files: WorktreeDiffFile[]): WorktreeDiffFile[] {
  let spent = 0;
  return files.map((file) => {
    if (file.patch === null) return file;
    spent += file.patch.length;
    return spent > MAX_DIFF_PATCH_BYTES || file.patch.length > MAX_FILE_PATCH_BYTES ? { ...file, patch: null } : file;
  });
}

/**
 * Files that differ from `revs[0]` to `revs[1]` (commits or trees), or to the working tree when only
 * one is given, each with its patch and line counts; `origins` is left empty for the caller.
 */
export async function changedFiles(git: Git, place: GitPlace, revs: readonly [string] | readonly [string, string]): Promise<WorktreeDiffFile[]> {
  const [nameStatus, patch] = await Promise.all([
    git.run(place, [...PLAIN_PATHS, 'diff', '--name-status', '-z', '-M', SUBMODULES_BY_COMMIT, '--end-of-options', ...revs, '--']),
    git.run(place, [...PLAIN_PATHS, 'diff', ...DIFF_OPTIONS, '--end-of-options', ...revs, '--']),
  ]);
  const patches = splitPatch(patch.stdout);
  return parseNameStatus(nameStatus.stdout).map((entry, index) => {
    const filePatch = patches[index] ?? null;
    return { ...entry, ...(filePatch ? countPatchLines(filePatch) : { additions: 0, deletions: 0, binary: false }), origins: [], patch: filePatch };
  });
}

/**
 * Each file's patch, as the changes view shows it, of just `paths` from `from` to `to` (commits or
 * trees); `forApply` adds the full object ids and binary contents `git apply` needs to write any
 * file back.
 */
export async function patchesOf(git: Git, place: GitPlace, [from, to]: readonly [string, string], paths: readonly string[], forApply = false): Promise<string[]> {
  const applyOptions = forApply ? ['--binary', '--full-index'] : [];
  const result = await git.run(place, [...PLAIN_PATHS, 'diff', ...DIFF_OPTIONS, ...applyOptions, '--end-of-options', from, to, '--', ...paths]);
  return splitPatch(result.stdout);
}

/**
 * What the agent's branch changed against where it left its parent (their merge base, so commits
 * the parent gained meanwhile never show): its commits, staged and unstaged changes, and new
 * untracked files, each file marked with where its changes lie. Reads only; no index is written.
 */
export async function readWorktreeDiff(git: Git, checkout: RecordedCheckout, worktree: Worktree): Promise<WorktreeDiff> {
  const [headCommit, forkPoint] = await Promise.all([commitOf(git, checkout, 'HEAD'), mergeBase(git, checkout, `refs/heads/${worktree.parentBranch}`, 'HEAD')]);
  const head = headCommit ?? worktree.baseCommit;
  const base = forkPoint ?? worktree.baseCommit;
  // Three reads of the working tree (status, name-status, patch); the rest read only git's objects.
  const [changed, committed, status, log] = await Promise.all([
    changedFiles(git, checkout, [base]),
    git.run(checkout, [...PLAIN_PATHS, 'diff', '--name-only', '-z', '-M', '--end-of-options', base, head]),
    git.run(checkout, [...PLAIN_PATHS, 'status', '--porcelain', '-z', '--untracked-files=all', SUBMODULES_BY_COMMIT]),
    git.run(checkout, ['log', '--no-color', '--format=%H%x1f%s%x1f%an%x1f%at%x1e', '--end-of-options', `${base}..${head}`]),
  ]);
  const committedPaths = new Set(splitNul(committed.stdout));
  const { staged, unstaged, untracked } = parseStatusOrigins(status.stdout);
  const tracked: WorktreeDiffFile[] = changed.map((file) => {
    const origins: DiffOrigin[] = [];
    if (committedPaths.has(file.path)) origins.push('committed');
    if (staged.has(file.path)) origins.push('staged');
    if (unstaged.has(file.path)) origins.push('unstaged');
    return { ...file, origins };
  });
  const added = await Promise.all(untracked.map((file) => untrackedFile(checkout.workTree, file)));
  const files = withinBudget([...tracked, ...added.filter((file): file is WorktreeDiffFile => file !== null)].sort((a, b) => a.path.localeCompare(b.path)));
  const commits = log.stdout
    .split('\x1e')
    .map((record) => record.trim())
    .filter((record) => record.length > 0)
    .map((record) => {
      const [sha = '', subject = '', author = '', time = '0'] = record.split('\x1f');
      return { sha, subject, author, time: Number(time) * 1000 };
    });
  return {
    agentId: worktree.agentId,
    branch: worktree.branch,
    parentBranch: worktree.parentBranch,
    base,
    head,
    commits,
    files,
    ...lineTotals(files),
  };
}
