import fs from 'node:fs';
import path from 'node:path';
import ignore, { type Ignore } from 'ignore';
import { isInside } from '../../../shared/folders';
import { fail } from '../errors';
import { splitNul } from '../git/nulFields';
import type { Git } from '../git/runner';

/** The file at a repository's root naming what a new worktree gets copied (the same file Claude Code reads). */
export const WORKTREE_INCLUDE_FILE = '.worktreeinclude';

/**
 * Copy-on-write where the filesystem can (btrfs, XFS), a plain copy elsewhere; never onto an entry
 * that is there (O_EXCL), so never through a symlink the branch put in its place. The copy keeps the
 * file's mode.
 */
const COPY_MODE = fs.constants.COPYFILE_FICLONE | fs.constants.COPYFILE_EXCL;

/** Runs a write that fails when its target exists; false when it did (the branch has its own entry there, left as it is). */
async function unlessThere(write: Promise<void>): Promise<boolean> {
  try {
    await write;
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
}

/**
 * One entry `.worktreeinclude` names, copied from the project checkout to the same place in a new
 * worktree. The worktree holds the branch's files, and the branch may track a symlink where the
 * checkout has a folder: every folder written into is resolved first, and one that leads outside
 * the worktree stops the copy (the creation is undone). Folders made for the copy get their
 * source's mode, so a 0700 folder of secrets stays 0700.
 */
class IncludedEntry {
  constructor(
    private readonly sourceRoot: string,
    private readonly targetRoot: string,
    private readonly entry: string,
  ) {}

  async copy(): Promise<void> {
    const parts = this.entry.replace(/\/$/, '').split('/');
    let folder = this.targetRoot;
    for (let depth = 1; depth < parts.length; depth++) folder = await this.folder(parts.slice(0, depth).join('/'), folder);
    await this.copyFrom(parts.join('/'), folder);
  }

  /** Copies `relative` (a file, a symlink or a folder, whole) into `folder`, a real folder of the worktree. */
  private async copyFrom(relative: string, folder: string): Promise<void> {
    const source = path.join(this.sourceRoot, relative);
    const target = path.join(folder, path.basename(relative));
    const stat = await fs.promises.lstat(source);
    if (stat.isDirectory()) {
      const made = await this.folder(relative, folder);
      for (const name of await fs.promises.readdir(source)) await this.copyFrom(`${relative}/${name}`, made);
    } else if (stat.isSymbolicLink()) {
      await unlessThere(fs.promises.symlink(await fs.promises.readlink(source), target));
    } else if (stat.isFile() && (await unlessThere(fs.promises.copyFile(source, target, COPY_MODE)))) {
      await fs.promises.utimes(target, stat.atime, stat.mtime);
    }
  }

  /**
   * The real path of the worktree's folder `relative` (inside `parent`, itself real): made at its
   * source's mode when missing; refused when it is a file, or a symlink that leads outside the worktree.
   */
  private async folder(relative: string, parent: string): Promise<string> {
    const target = path.join(parent, path.basename(relative));
    const found = await fs.promises.lstat(target).catch(() => null);
    if (!found) {
      const mode = (await fs.promises.stat(path.join(this.sourceRoot, relative))).mode & 0o7777;
      // The umask narrows mkdir's mode; chmod gives the source's exactly.
      await fs.promises.mkdir(target, { mode });
      await fs.promises.chmod(target, mode);
      return target;
    }
    if (found.isSymbolicLink()) {
      const real = await fs.promises.realpath(target).catch(() => null);
      if (real === null || !isInside(this.targetRoot, real)) this.refuse(`${relative} there is a symbolic link to ${await fs.promises.readlink(target)}, outside the worktree`);
      if ((await fs.promises.stat(real)).isDirectory()) return real;
    } else if (found.isDirectory()) {
      return target;
    }
    this.refuse(`${relative} there is a file, not a folder`);
  }

  private refuse(why: string): never {
    fail(
      'invalid-state',
      `Cannot copy ${this.entry} into the new worktree: ${why} (the branch it starts from tracks it that way). Nothing was made: leave ${this.entry} out of ${WORKTREE_INCLUDE_FILE}, or start from another branch.`,
    );
  }
}

/** Files under an ignored folder that the patterns name (the folder itself was not named whole). */
async function matchingFilesIn(root: string, folder: string, matcher: Ignore): Promise<string[]> {
  const found: string[] = [];
  const entries = await fs.promises.readdir(path.join(root, folder), { withFileTypes: true });
  for (const entry of entries) {
    const relative = `${folder}${entry.name}`;
    if (entry.isDirectory()) {
      if (matcher.ignores(`${relative}/`)) found.push(`${relative}/`);
      else found.push(...(await matchingFilesIn(root, `${relative}/`, matcher)));
    } else if (matcher.ignores(relative)) {
      found.push(relative);
    }
  }
  return found;
}

/**
 * Copies into a new worktree the files of the project checkout that `.worktreeinclude` names
 * (gitignore syntax) and git ignores: `.env` files and the like, which a fresh checkout lacks.
 * Tracked files are in the checkout already, and whatever the branch has in a copy's place is kept.
 * Returns how many entries were copied.
 */
export async function copyIncludedFiles(git: Git, sourceRoot: string, targetRoot: string): Promise<number> {
  let patterns: string;
  try {
    patterns = await fs.promises.readFile(path.join(sourceRoot, WORKTREE_INCLUDE_FILE), 'utf8');
  } catch {
    return 0;
  }
  const matcher = ignore().add(patterns);
  // Ignored, untracked entries; a wholly ignored folder comes as one `folder/` entry.
  const listed = splitNul((await git.run(sourceRoot, ['ls-files', '--others', '--ignored', '--exclude-standard', '--directory', '-z'])).stdout);
  const wanted: string[] = [];
  for (const entry of listed) {
    if (matcher.ignores(entry)) wanted.push(entry);
    else if (entry.endsWith('/')) wanted.push(...(await matchingFilesIn(sourceRoot, entry, matcher)));
  }
  const realTarget = await fs.promises.realpath(targetRoot);
  for (const entry of wanted) await new IncludedEntry(sourceRoot, realTarget, entry).copy();
  return wanted.length;
}
