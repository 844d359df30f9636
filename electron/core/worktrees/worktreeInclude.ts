import fs from 'node:fs';
import path from 'node:path';
import ignore, { type Ignore } from 'ignore';
import type { Git } from './git';
import { splitNul } from './repo';

/** The file at a repository's root naming what a new worktree gets copied (the same file Claude Code reads). */
export const WORKTREE_INCLUDE_FILE = '.worktreeinclude';

/** Copy-on-write where the filesystem can (btrfs, XFS), a plain copy elsewhere. */
const COPY_MODE = fs.constants.COPYFILE_FICLONE;

async function copyEntry(source: string, target: string): Promise<void> {
  await fs.promises.mkdir(path.dirname(target), { recursive: true });
  await fs.promises.cp(source, target, { recursive: true, mode: COPY_MODE, preserveTimestamps: true, verbatimSymlinks: true, force: false, errorOnExist: false });
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
 * Tracked files are in the checkout already. Returns how many entries were copied.
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
  for (const entry of wanted) await copyEntry(path.join(sourceRoot, entry), path.join(targetRoot, entry));
  return wanted.length;
}
