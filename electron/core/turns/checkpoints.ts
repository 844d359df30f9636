import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { isInside } from '../../../shared/folders';
import { countOf, listNames } from '../../../shared/plural';
import { fail } from '../errors';
import { parseRawDiff, type RawChange } from '../git/diff';
import { nulList, splitNul } from '../git/nulFields';
import { workTreeOf, type Git, type GitPlace, type RecordedCheckout } from '../git/runner';
import type { GitSession } from '../git/session';
import { stageEverything } from '../git/staging';
import { holdsAnything, SUBMODULE_MODE } from '../git/submodules';

/** Checkpoints are Drover's own commits, whoever's git config is in force. */
const CHECKPOINT_IDENTITY = 'Drover <drover@localhost>';

/**
 * What ends an answer of `diff-tree --stdin`: git prints a line that names no objects as it is,
 * after the answers to the lines before it (a diff with nothing in it prints nothing).
 */
const DIFF_END = '--end of diff--';

/** A commit or tree id as git prints it: only such ids are passed on as revisions. */
const OBJECT_ID = /^[0-9a-f]{40}(?:[0-9a-f]{24})?$/;

/**
 * How long a worktree's checkpoint gits (see CheckpointGits) wait for its next checkpoint before
 * they end: longer than most turns, so a busy agent's checkpoints find them running, and short
 * enough that the gits of an agent gone or idle do not stay.
 */
const SESSION_IDLE_MS = 5 * 60_000;

/**
 * The gits a worktree's checkpoints keep running between them, each answering a request with a
 * write and a read instead of a process of its own: one resolves names (HEAD, a remembered
 * commit's tree), one writes refs, one writes commits, one counts the lines two trees differ by.
 */
interface CheckpointGits {
  names: GitSession;
  refs: GitSession;
  commits: GitSession;
  diffs: GitSession;
}

/** A commit of a worktree's index, and the HEAD it was made on (the snapshot's first parent). */
interface IndexCommit {
  head: string;
  commit: string;
}

/** The commit of a worktree's index made last, with the index's checksum and tree. */
interface RememberedIndex extends IndexCommit {
  checksum: string;
  tree: string;
}

/** Where the checkpoints of one agent live (`for-each-ref` and `--glob` take it as a prefix). */
export function checkpointRefsOf(agentId: string): string {
  return `refs/drover/checkpoints/${agentId}`;
}

export interface Snapshot {
  /** Its tree is every file git does not ignore; its parents are HEAD and a commit of the index. */
  commit: string;
  tree: string;
}

export interface ChangeStats {
  files: number;
  additions: number;
  deletions: number;
}

function objectId(text: string, what: string): string {
  const id = text.trim();
  if (!OBJECT_ID.test(id)) fail('invalid-state', `git gave ${JSON.stringify(id.slice(0, 80))} for ${what}, which is not an object id.`);
  return id;
}

/** `1765000000 +0100`: seconds since the epoch and the local time's offset from UTC, as a commit records them. */
function gitTimestamp(at: Date): string {
  const offsetMinutes = -at.getTimezoneOffset();
  const magnitude = Math.abs(offsetMinutes);
  const offset = `${offsetMinutes < 0 ? '-' : '+'}${String(Math.floor(magnitude / 60)).padStart(2, '0')}${String(magnitude % 60).padStart(2, '0')}`;
  return `${Math.floor(at.getTime() / 1000)} ${offset}`;
}

/** `3 files changed, 10 insertions(+), 2 deletions(-)` (git leaves out the parts that are 0). */
export function parseShortStat(output: string): ChangeStats {
  const count = (pattern: RegExp) => Number(pattern.exec(output)?.[1] ?? 0);
  return { files: count(/(\d+) files? changed/), additions: count(/(\d+) insertions?\(\+\)/), deletions: count(/(\d+) deletions?\(-\)/) };
}

/** Whether one of two repository paths is the other or lies inside it. */
function overlaps(a: string, b: string): boolean {
  return a === b || a.startsWith(`${b}/`) || b.startsWith(`${a}/`);
}

/**
 * The entries not inside another (a folder, named with its trailing slash): git lists a folder that
 * holds only ignored files, and those files too.
 */
function outermost(entries: readonly string[]): string[] {
  const folders = new Set(entries.filter((entry) => entry.endsWith('/')));
  /** The folders above `entry`: `a/` and `a/b/` for `a/b/c` or `a/b/c/`. */
  const above = (entry: string) => {
    const parents = entry.replace(/\/$/, '').split('/').slice(0, -1);
    return parents.map((_name, index) => `${parents.slice(0, index + 1).join('/')}/`);
  };
  return entries.filter((entry) => !above(entry).some((folder) => folders.has(folder)));
}

/** A change to a `.gitignore` file, which decides what git ignores in its folder. */
const isIgnoreFile = (change: RawChange): boolean => path.posix.basename(change.path) === '.gitignore';

/**
 * Refuses, naming them, a restore that changes the commit of a submodule checked out in the
 * worktree (or of a repository of its own there), or takes it away: that takes a git inside its
 * folder, where the agent can plant a git dir whose config runs commands, and Drover's git never
 * runs there. A submodule not checked out is only an entry, which the restore sets.
 */
function refuseMovingSubmodules(workTree: string, changes: readonly RawChange[]): void {
  const moved = changes.filter((change) => change.modeBefore === SUBMODULE_MODE && holdsAnything(path.join(workTree, change.path)));
  if (moved.length === 0) return;
  const described = moved.map((change) => (change.modeAfter === SUBMODULE_MODE ? `${change.path} to ${change.objectAfter.slice(0, 12)}` : `${change.path}, which the checkpoint has not`));
  fail(
    'conflict',
    `Restoring would move ${countOf(moved.length, 'submodule')} checked out in the worktree (${listNames(described)}), and Drover runs no git inside a submodule's folder, since the agent can write that git's config. ` +
      `Check out the checkpoint's commit there yourself (or move a folder the checkpoint has not out of the worktree), then restore again. Nothing was changed.`,
  );
}

/** A copy of the index that git takes for the same (its timestamps kept, so racily clean entries are still checked). */
async function copyIndex(from: string, to: string): Promise<void> {
  try {
    const [, stat] = await Promise.all([fs.promises.copyFile(from, to), fs.promises.stat(from)]);
    await fs.promises.utimes(to, stat.atime, stat.mtime);
  } catch (error) {
    // No index yet (nothing ever staged): git starts from an empty one.
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}

/** Bytes at an index file's end: its checksum (SHA-1 or SHA-256) ends there. */
const CHECKSUM_BYTES = 32;

/**
 * What names an index file's content: the checksum of its bytes that git writes at its end (the
 * same checksum, the same entries, so the same tree). Null without one to go by: no index, or
 * index.skipHash (git writes zeros).
 */
async function indexChecksum(indexFile: string): Promise<string | null> {
  let handle: fs.promises.FileHandle;
  try {
    handle = await fs.promises.open(indexFile, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  try {
    const { size } = await handle.stat();
    if (size < CHECKSUM_BYTES) return null;
    const { buffer } = await handle.read(Buffer.alloc(CHECKSUM_BYTES), 0, CHECKSUM_BYTES, size - CHECKSUM_BYTES);
    // A SHA-1 checksum is the last 20 bytes; zeros there are no checksum, whichever hash it is.
    return buffer.subarray(CHECKSUM_BYTES - 20).every((byte) => byte === 0) ? null : buffer.toString('hex');
  } finally {
    await handle.close();
  }
}

/**
 * The git side of checkpoints: a worktree's state written as a commit through temporary copies of
 * its index (its own index, HEAD and files are never touched), restored on request, compared, and
 * pruned without losing commits that only a checkpoint holds.
 */
export class Checkpoints {
  private readonly gitDirs = new Map<string, string>();
  /** The last commit of each worktree's index (by the index's path). */
  private readonly indexCommits = new Map<string, RememberedIndex>();
  /** By the worktree's git dir (the folder, for a person's own checkout). */
  private readonly sessions = new Map<string, CheckpointGits>();

  constructor(private readonly git: Git) {}

  /**
   * The worktree as it stands: every file git does not ignore (staged, unstaged, untracked) as the
   * commit's tree, and the index as its second parent.
   */
  async snapshot(place: GitPlace, message: string): Promise<Snapshot> {
    return this.snapshotParts(place, async (tree, index) => ({ commit: await this.snapshotCommit(place, tree, index, message), tree }));
  }

  /**
   * A checkpoint kept under `ref`: the snapshot, and the files and lines it differs by from `since`
   * (counted from its tree while its commit and ref are written). What a turn's end costs.
   */
  async take(place: GitPlace, message: string, ref: string, since: string): Promise<{ snapshot: Snapshot; stats: ChangeStats }> {
    return this.snapshotParts(place, async (tree, index) => {
      const kept = async () => {
        const commit = await this.snapshotCommit(place, tree, index, message);
        await this.setRef(place, ref, commit);
        return commit;
      };
      const [commit, stats] = await Promise.all([kept(), this.stats(place, since, tree)]);
      return { snapshot: { commit, tree }, stats };
    });
  }

  /**
   * A snapshot's tree and its index's commit, through two copies of the index used at once: one
   * to add the working files to (started first: it is the longer), one for the index's tree; and
   * what `then` makes of them, started as soon as they are known, while the copies are removed.
   */
  private async snapshotParts<T>(place: GitPlace, then: (tree: string, index: IndexCommit) => Promise<T>): Promise<T> {
    const { started } = await this.withIndexCopies(place, ['forFiles', 'forIndex'], async ({ forFiles, forIndex }) => {
      const [tree, index] = await Promise.all([this.filesTree(place, forFiles), this.indexCommit(place, forIndex)]);
      const started = then(tree, index);
      // Awaited once the copies are removed; should removing them fail, its failure must not go unhandled meanwhile.
      started.catch(() => {});
      return { started };
    });
    return started;
  }

  /**
   * The snapshot's commit: `tree` on the HEAD its index's commit was made on, and that commit. One
   * that fails forgets the index's commit, which may be what git no longer has.
   */
  private async snapshotCommit(place: GitPlace, tree: string, index: IndexCommit, message: string): Promise<string> {
    try {
      return await this.commitTree(place, tree, [index.head, index.commit], message);
    } catch (error) {
      this.indexCommits.delete(path.join(await this.gitDirOf(place), 'index'));
      throw error;
    }
  }

  /** The tree of every file git does not ignore, for comparing without keeping a checkpoint. */
  async tree(place: GitPlace): Promise<string> {
    return this.withIndexCopies(place, ['copy'], ({ copy }) => this.filesTree(place, copy));
  }

  /**
   * Fails, saying why, when a restore of checkpoint `target` must not go ahead: `branch` is not
   * checked out, or the restore would overwrite or remove files git ignores now. Changes nothing.
   */
  async checkRestore(place: GitPlace, branch: string, target: string): Promise<void> {
    await this.requireBranch(place, branch);
    const targetTree = objectId((await this.git.run(place, ['rev-parse', `${objectId(target, 'the checkpoint')}^{tree}`])).stdout, 'the tree of the restore');
    await this.withIndexCopies(place, ['copy'], ({ copy }) => this.planRestore(place, copy, targetTree));
  }

  /**
   * Puts the worktree back as checkpoint `target` had it: files (only those that differ are
   * written or removed, whether files, folders or links), then HEAD (the branch moves back if it
   * moved on), then the index. Refused as checkRestore says; ignored files are left alone. The
   * files are read again before HEAD and the index move: what still differs from the checkpoint
   * switches the files back and fails the restore, named, so a failed restore changes nothing.
   * Returns the paths changed.
   */
  async restore(place: GitPlace, branch: string, target: string): Promise<string[]> {
    await this.requireBranch(place, branch);
    const commit = objectId(target, 'the checkpoint');
    const revisions = { tree: `${commit}^{tree}`, head: `${commit}^1`, index: `${commit}^2^{tree}`, current: 'HEAD' };
    const lines = (await this.git.run(place, ['rev-parse', ...Object.values(revisions)])).stdout.split('\n');
    const [targetTree, targetHead, targetIndex, head] = Object.keys(revisions).map((name, index) => objectId(lines[index] ?? '', `${name} of the restore`)) as [string, string, string, string];
    const paths = await this.withIndexCopies(place, ['forFiles', 'forCheck'], async ({ forFiles, forCheck }) => {
      const { current, paths: differing } = await this.planRestore(place, forFiles, targetTree);
      if (differing.length > 0) await this.switchFiles(place, { forFiles, forCheck }, current, targetTree);
      return differing;
    });
    if (head !== targetHead) await this.git.run(place, ['update-ref', '-m', 'drover: restore a checkpoint', '--end-of-options', `refs/heads/${branch}`, targetHead, head]);
    await this.git.run(place, ['read-tree', '--end-of-options', targetIndex]);
    // read-tree drops what the index knew of the files' stat data; git status would redo it each time.
    await this.git.run(place, ['update-index', '-q', '--refresh'], { okCodes: [0, 1] });
    return paths;
  }

  /** Files and lines that differ from one commit or tree to another. */
  async stats(place: GitPlace, from: string, to: string): Promise<ChangeStats> {
    const gits = this.sessionsOf(place);
    const trees = await gits.names.request(`${objectId(from, 'a state')}^{tree}\n${objectId(to, 'a state')}^{tree}\n`, 2, (lines) => lines.every((line) => OBJECT_ID.test(line)));
    const [fromTree, toTree] = trees.map((line, index) => objectId(line, `the tree of ${index === 0 ? from : to}`)) as [string, string];
    const answer = await gits.diffs.request(`${fromTree} ${toTree}\n${DIFF_END}\n`, (line) => line === DIFF_END);
    return parseShortStat(answer.join('\n'));
  }

  /** Points `ref` at `commit`, through the worktree's running `update-ref --stdin` (a transaction of its own). */
  async setRef(place: GitPlace, ref: string, commit: string): Promise<void> {
    // Git refuses such a ref name anyway; in a request it would split the line or its fields.
    if (/\s/.test(ref)) fail('invalid-state', `${JSON.stringify(ref)} is not a ref name git takes.`);
    const answer = await this.sessionsOf(place).refs.request(`start\nupdate ${ref} ${objectId(commit, 'a checkpoint')}\ncommit\n`, 2);
    if (answer.join('\n') !== 'start: ok\ncommit: ok') fail('invalid-state', `git update-ref answered ${JSON.stringify(answer.join('; '))} for ${ref}.`);
  }

  async deleteRef(place: GitPlace, ref: string): Promise<void> {
    await this.git.run(place, ['update-ref', '-d', '--end-of-options', ref]);
  }

  /** The checkpoint refs under `prefix`, with the commit each names. */
  async refs(place: GitPlace, prefix: string): Promise<{ ref: string; commit: string }[]> {
    const result = await this.git.run(place, ['for-each-ref', '--format=%(objectname) %(refname)', '--end-of-options', `${prefix}/`]);
    return result.stdout
      .split('\n')
      .filter((line) => line.length > 0)
      .map((line) => ({ commit: line.slice(0, line.indexOf(' ')), ref: line.slice(line.indexOf(' ') + 1) }));
  }

  /**
   * Whether the checkpoint under `ref` is the only thing that holds some commit: one its HEAD
   * reached that no branch, tag or other checkpoint reaches (after a restore moved a branch back,
   * its later commits live only in the checkpoint taken before).
   */
  async holdsOrphanCommits(place: GitPlace, ref: string, checkpointsPrefix: string): Promise<boolean> {
    // The first parent is HEAD; the second, the index's commit, is Drover's own and grows from HEAD.
    const result = await this.git.run(place, ['rev-list', '-n1', `${ref}^1`, '--not', '--branches', '--tags', `--exclude=${ref}`, `--glob=${checkpointsPrefix}`], { okCodes: [0, 128] });
    return result.code === 0 && result.stdout.trim().length > 0;
  }

  /** Bytes of the objects the checkpoints under these prefixes hold that no branch or tag holds. */
  async diskUsage(place: GitPlace, prefixes: readonly string[]): Promise<number> {
    if (prefixes.length === 0) return 0;
    const result = await this.git.run(place, ['rev-list', '--objects', '--disk-usage', ...prefixes.map((prefix) => `--glob=${prefix}`), '--not', '--branches', '--tags']);
    return Number(result.stdout.trim()) || 0;
  }

  private async requireBranch(place: GitPlace, branch: string): Promise<void> {
    const checkedOut = await this.git.run(place, ['symbolic-ref', '--quiet', '--short', 'HEAD'], { okCodes: [0, 1, 128] });
    if (checkedOut.stdout.trim() !== branch) {
      fail('invalid-state', `The worktree has ${checkedOut.code === 0 ? `branch ${checkedOut.stdout.trim()}` : 'a detached HEAD'} checked out, not ${branch}; check out ${branch} there first.`);
    }
  }

  /**
   * The worktree's files as a tree (written through `indexFile`) and the paths a restore to
   * `targetTree` changes. Refused, naming them, when those paths would overwrite or remove files git
   * ignores now (no checkpoint holds those, so undoing the restore could not bring them back), or
   * move a submodule checked out in the worktree (only a git inside its folder could).
   */
  private async planRestore(place: GitPlace, indexFile: string, targetTree: string): Promise<{ current: string; paths: string[] }> {
    const current = await this.filesTree(place, indexFile);
    if (current === targetTree) return { current, paths: [] };
    const changes = parseRawDiff((await this.git.run(place, ['diff-tree', '-r', '-z', '--raw', '--no-renames', '--end-of-options', current, targetTree])).stdout);
    refuseMovingSubmodules(workTreeOf(place), changes);
    const paths = changes.map((change) => change.path);
    // The index copy holds every file not ignored, so the others are exactly the ignored ones (a wholly ignored folder as one entry).
    const ignored = outermost(splitNul((await this.git.run(place, ['ls-files', '-z', '--others', '--ignored', '--exclude-standard', '--directory'], { env: { GIT_INDEX_FILE: indexFile } })).stdout));
    const inTheWay = ignored.filter((entry) => paths.some((file) => overlaps(entry.replace(/\/$/, ''), file)));
    if (inTheWay.length > 0) {
      const them = inTheWay.length === 1 ? 'it' : 'them';
      fail(
        'conflict',
        `Restoring would overwrite or remove ${countOf(inTheWay.length, 'path')} git ignores in the worktree now (${listNames(inTheWay)}), and no checkpoint holds ignored files, so undoing the restore could not bring ${them} back. ` +
          `Move ${them} out of the worktree, then restore again. Nothing was changed.`,
      );
    }
    const unignored = await this.noLongerIgnored(place, indexFile, targetTree, changes, ignored);
    if (unignored.length > 0) {
      const them = unignored.length === 1 ? 'it' : 'them';
      const rules = changes.filter(isIgnoreFile).map((change) => change.path);
      fail(
        'conflict',
        `Restoring would change ${listNames(rules)}, and git would no longer ignore ${countOf(unignored.length, 'path')} it ignores in the worktree now (${listNames(unignored)}): the worktree would differ from the checkpoint, and undoing the restore would remove ${them}. ` +
          `Move ${them} out of the worktree, then restore again. Nothing was changed.`,
      );
    }
    return { current, paths };
  }

  /**
   * Of the entries git ignores now (through `indexFile`), those it would no longer ignore once a
   * restore to `targetTree` changed the `.gitignore` files among `changes`: git check-ignore reads
   * them against the checkpoint's own .gitignore files, written out to a folder of their own. A
   * folder git would not ignore as a whole any more still counts as ignored when each file in it
   * is (`logs/` now, `*.log` in the checkpoint), as git decides file by file there.
   */
  private async noLongerIgnored(place: GitPlace, indexFile: string, targetTree: string, changes: readonly RawChange[], ignored: readonly string[]): Promise<string[]> {
    const folders = changes.filter(isIgnoreFile).map((change) => path.posix.dirname(change.path));
    const affected = ignored.filter((entry) => folders.some((folder) => folder === '.' || entry.startsWith(`${folder}/`)));
    if (affected.length === 0) return [];
    const scratch = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'drover-ignore-rules-'));
    try {
      const rules = path.join(scratch, 'rules');
      await this.writeIgnoreFiles(place, targetTree, rules, path.join(scratch, 'index'));
      const underRules = { workTree: rules, gitDir: await this.gitDirOf(place) };
      const stillWhole = await this.ignoredAmong(underRules, affected);
      const notWhole = affected.filter((entry) => !stillWhole.has(entry));
      const openedFolders = notWhole.filter((entry) => entry.endsWith('/'));
      const filesInside =
        openedFolders.length === 0
          ? []
          : splitNul((await this.git.run(place, ['ls-files', '-z', '--others', '--ignored', '--exclude-standard', '--', ...openedFolders.map((folder) => folder.slice(0, -1))], { env: { GIT_INDEX_FILE: indexFile } })).stdout);
      const stillFiles = await this.ignoredAmong(underRules, filesInside);
      const unignoredFiles = filesInside.filter((file) => !stillFiles.has(file));
      return notWhole.filter((entry) => !entry.endsWith('/') || unignoredFiles.some((file) => file.startsWith(entry)));
    } finally {
      await fs.promises.rm(scratch, { recursive: true, force: true });
    }
  }

  /**
   * Writes the `.gitignore` files of `tree` (those that are files: git reads no other) under
   * `folder` as a checkout writes them, through an index of their own: two git processes, however
   * many there are. A path that would land outside `folder` is refused before anything is written.
   */
  private async writeIgnoreFiles(place: GitPlace, tree: string, folder: string, indexFile: string): Promise<void> {
    await fs.promises.mkdir(folder);
    // `<mode> <type> <object>\t<path>`.
    const listed = splitNul((await this.git.run(place, ['ls-tree', '-r', '-z', '--full-tree', '--end-of-options', tree])).stdout);
    const ignoreFiles = listed
      .map((line) => {
        const [mode = '', , object = ''] = line.slice(0, line.indexOf('\t')).split(' ');
        return { mode, object, path: line.slice(line.indexOf('\t') + 1) };
      })
      .filter((entry) => /^100[67]/.test(entry.mode) && path.posix.basename(entry.path) === '.gitignore');
    if (ignoreFiles.length === 0) return;
    const outside = ignoreFiles.find((file) => {
      const written = path.resolve(folder, file.path);
      return written === folder || !isInside(folder, written);
    });
    if (outside) fail('invalid-state', `The checkpoint's tree names ${outside.path}, which is not a path inside the worktree: nothing of it was written, and nothing was changed.`);
    const env = { GIT_INDEX_FILE: indexFile };
    const entries = ignoreFiles.map((file) => `${file.mode} ${objectId(file.object, file.path)}\t${file.path}\0`).join('');
    await this.git.run(place, ['update-index', '-z', '--index-info'], { env, input: entries });
    await this.git.run(place, ['checkout-index', '--all', `--prefix=${folder}/`], { env });
  }

  /**
   * Of `paths` (repository paths, a folder with its trailing slash), those git ignores at `place`,
   * through its `.gitignore` files and the repository's own excludes.
   */
  private async ignoredAmong(place: RecordedCheckout, paths: readonly string[]): Promise<Set<string>> {
    if (paths.length === 0) return new Set();
    // `:(top)` before each path makes the rest of it literal (a file named `:(exclude)*` is a file); git prints the paths as given.
    const asGiven = paths.map((entry) => `:(top)${entry}`);
    const check = await this.git.run(place, ['check-ignore', '--no-index', '-z', '--stdin'], { input: nulList(asGiven), okCodes: [0, 1], literalPathspecs: false });
    const ignored = new Set(splitNul(check.stdout));
    return new Set(paths.filter((_entry, index) => ignored.has(asGiven[index] as string)));
  }

  /**
   * Switches the worktree's files from tree `current` to `target` through `forFiles`, an index
   * copy that holds every current file (so exactly what differs is written or removed, and no file
   * name is read as a pathspec), then reads them again through a copy of it. What still differs
   * from `target` switches them back through the same index and fails, named.
   */
  private async switchFiles(place: GitPlace, { forFiles, forCheck }: { forFiles: string; forCheck: string }, current: string, target: string): Promise<void> {
    const env = { GIT_INDEX_FILE: forFiles };
    await this.git.run(place, ['read-tree', '-m', '-u', '--end-of-options', current, target], { env });
    const problem = await this.differenceFrom(place, forFiles, forCheck, target).catch((error: unknown) => `Reading the files again failed: ${error instanceof Error ? error.message : String(error)}`);
    if (problem === null) return;
    // --reset: the files that differ are the ones just written, so they are written over.
    const back = await this.git.run(place, ['read-tree', '--reset', '-u', '--end-of-options', target, current], { env, okCodes: [0, 128] });
    if (back.code !== 0) fail('invalid-state', `${problem} Switching the files back failed too: ${back.stderr.trim().split('\n')[0] ?? ''}.`);
    fail('invalid-state', `${problem} The files were switched back: nothing was changed.`);
  }

  /** What of the worktree's files differs from tree `target`, said, read through `forCheck`, a copy of `indexFile`; null when nothing does. */
  private async differenceFrom(place: GitPlace, indexFile: string, forCheck: string, target: string): Promise<string | null> {
    await copyIndex(indexFile, forCheck);
    const restored = await this.filesTree(place, forCheck);
    if (restored === target) return null;
    const left = splitNul((await this.git.run(place, ['diff-tree', '-r', '-z', '--name-only', '--no-renames', '--end-of-options', restored, target])).stdout);
    return `After the restore the worktree still differed from the checkpoint in ${countOf(left.length, 'path')}: ${listNames(left)}.`;
  }

  /**
   * A commit of the index (a copy of the worktree's, `indexCopy`) on HEAD as it is now. An agent
   * seldom stages, so its index stays as it was from turn to turn: the commit made last is taken
   * again for the same index (known by its checksum) on the same HEAD, and its tree for the same
   * index on another HEAD. Either is forgotten and written again when git no longer has it (pruned
   * with the checkpoints that held it).
   */
  private async indexCommit(place: GitPlace, indexCopy: string): Promise<IndexCommit> {
    const worktreeIndex = path.join(await this.gitDirOf(place), 'index');
    const checksum = await indexChecksum(indexCopy);
    const remembered = checksum === null ? undefined : this.indexCommits.get(worktreeIndex);
    const same = remembered?.checksum === checksum ? remembered : undefined;
    // The commit's tree as git finds it now: missing when either is gone.
    const [headLine = '', treeLine] = await this.sessionsOf(place).names.request(same ? `HEAD\n${same.commit}^{tree}\n` : 'HEAD\n', same ? 2 : 1, ([line = '']) => OBJECT_ID.test(line));
    const head = objectId(headLine, 'HEAD');
    if (same && treeLine === same.tree) {
      if (same.head === head) return same;
      const moved = { ...same, head, commit: await this.commitTree(place, same.tree, [head], 'index') };
      this.indexCommits.set(worktreeIndex, moved);
      return moved;
    }
    const { tree, fromIndex } = await this.indexTree(place, indexCopy, head);
    const commit = await this.commitTree(place, tree, [head], 'index');
    if (checksum !== null && fromIndex) this.indexCommits.set(worktreeIndex, { checksum, head, tree, commit });
    else this.indexCommits.delete(worktreeIndex);
    return { head, commit };
  }

  /** The index as a tree; one with unresolved conflicts has none, and counts as `head`'s. */
  private async indexTree(place: GitPlace, indexFile: string, head: string): Promise<{ tree: string; fromIndex: boolean }> {
    const written = await this.git.run(place, ['write-tree'], { env: { GIT_INDEX_FILE: indexFile }, okCodes: [0, 128] });
    if (written.code === 0) return { tree: objectId(written.stdout, 'the index'), fromIndex: true };
    return { tree: objectId((await this.git.run(place, ['rev-parse', `${head}^{tree}`])).stdout, "HEAD's tree"), fromIndex: false };
  }

  /** The worktree's running checkpoint gits (started on their first request). */
  private sessionsOf(place: GitPlace): CheckpointGits {
    const key = typeof place === 'string' ? place : place.gitDir;
    let gits = this.sessions.get(key);
    if (!gits) {
      gits = {
        names: this.git.session(place, ['cat-file', '--batch-check=%(objectname)'], SESSION_IDLE_MS),
        refs: this.git.session(place, ['update-ref', '--stdin', '-m', 'drover: checkpoint'], SESSION_IDLE_MS),
        commits: this.git.session(place, ['hash-object', '-w', '-t', 'commit', '--no-filters', '--stdin-paths'], SESSION_IDLE_MS),
        diffs: this.git.session(place, ['diff-tree', '--stdin', '--shortstat', '-M', '--no-ext-diff', '--no-textconv'], SESSION_IDLE_MS),
      };
      this.sessions.set(key, gits);
    }
    return gits;
  }

  private async filesTree(place: GitPlace, indexFile: string): Promise<string> {
    const env = { GIT_INDEX_FILE: indexFile };
    await stageEverything(this.git, place, env);
    return objectId((await this.git.run(place, ['write-tree'], { env })).stdout, 'the files');
  }

  /**
   * A commit of `tree` on `parents`, as `git commit-tree` writes it (never signed), through the
   * worktree's running `hash-object`, which takes the commit from a file of its own and checks it.
   */
  private async commitTree(place: GitPlace, tree: string, parents: readonly string[], message: string): Promise<string> {
    const signature = `${CHECKPOINT_IDENTITY} ${gitTimestamp(new Date())}`;
    const header = [`tree ${objectId(tree, 'a tree')}`, ...parents.map((parent) => `parent ${objectId(parent, 'a parent')}`), `author ${signature}`, `committer ${signature}`];
    const file = path.join(os.tmpdir(), `drover-commit-${randomUUID()}`);
    await fs.promises.writeFile(file, `${header.join('\n')}\n\n${message.replace(/\n*$/, '\n')}`, { flag: 'wx', mode: 0o600 });
    try {
      const [line = ''] = await this.sessionsOf(place).commits.request(`${file}\n`, 1);
      return objectId(line, 'a checkpoint');
    } finally {
      await fs.promises.rm(file, { force: true });
    }
  }

  /** Runs `work` with copies of the worktree's index, one by each of `names`, in a private temporary folder removed after. */
  private async withIndexCopies<const Name extends string, T>(place: GitPlace, names: readonly Name[], work: (copies: Record<Name, string>) => Promise<T>): Promise<T> {
    const indexFile = path.join(await this.gitDirOf(place), 'index');
    const dir = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'drover-checkpoint-'));
    try {
      const copies = Object.fromEntries(names.map((name) => [name, path.join(dir, name)])) as Record<Name, string>;
      await Promise.all(names.map((name) => copyIndex(indexFile, copies[name])));
      return await work(copies);
    } finally {
      await fs.promises.rm(dir, { recursive: true, force: true });
    }
  }

  /** The worktree's own git dir, where its index is (a linked worktree's lives in the main repository's git dir). */
  private async gitDirOf(place: GitPlace): Promise<string> {
    if (typeof place !== 'string') return place.gitDir;
    let gitDir = this.gitDirs.get(place);
    if (!gitDir) {
      gitDir = (await this.git.run(place, ['rev-parse', '--absolute-git-dir'])).stdout.trim();
      this.gitDirs.set(place, gitDir);
    }
    return gitDir;
  }
}
