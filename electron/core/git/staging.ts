import fs from 'node:fs';
import path from 'node:path';
import { nulList, splitNul } from './nulFields';
import { workTreeOf, type Git, type GitPlace } from './runner';
import { SUBMODULE_MODE, submoduleEntries } from './submodules';

/** A gitlink's mode as an index file stores each entry's (32 bits, big-endian), whatever its version. */
const GITLINK_MODE_BYTES = Buffer.from([0x00, 0x00, 0xe0, 0x00]);

/**
 * Read at once, the index of a project of thousands of files (a few hundred KB), searched in well
 * under a millisecond; a larger one is read and searched a part at a time.
 */
const INDEX_CHUNK_BYTES = 1024 * 1024;

/**
 * Whether `file` holds `bytes`, read a chunk at a time: an index can be tens of MB, and neither
 * reading nor searching it whole may hold up the host's thread.
 */
async function fileHolds(file: string, bytes: Buffer): Promise<boolean> {
  let carried = Buffer.alloc(0);
  for await (const chunk of fs.createReadStream(file, { highWaterMark: INDEX_CHUNK_BYTES })) {
    const joined = Buffer.concat([carried, chunk as Buffer]);
    if (joined.includes(bytes)) return true;
    // Enough of this chunk's end for `bytes` cut in two by the next one.
    carried = joined.subarray(Math.max(0, joined.length - bytes.length + 1));
  }
  return false;
}

/**
 * False only when the index `env` names (else the checkout's own) certainly holds no submodule's
 * entry: no four bytes of it read as a gitlink's mode, and no shared index (core.splitIndex) keeps
 * entries elsewhere. Listing every entry to find out costs a checkpoint a git process of its own.
 */
async function mayHoldSubmodules(place: GitPlace, env: Record<string, string>): Promise<boolean> {
  if (typeof place === 'string') return true;
  const indexHolds = fileHolds(env.GIT_INDEX_FILE ?? path.join(place.gitDir, 'index'), GITLINK_MODE_BYTES).catch((error: unknown) => {
    // No index yet: nothing is staged, a submodule neither.
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  });
  const [gitDirNames, holds] = await Promise.all([fs.promises.readdir(place.gitDir), indexHolds]);
  return holds || gitDirNames.some((name) => name.startsWith('sharedindex.'));
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
