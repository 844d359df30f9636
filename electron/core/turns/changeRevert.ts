import path from 'node:path';
import { canonicalHunk, splitHunks } from '../../../shared/diffHunks';
import { isInside } from '../../../shared/folders';
import type { RevertTarget } from '../../../shared/turns';
import { fail } from '../errors';
import { patchesOf } from '../git/diff';
import { workTreeOf, type Git, type GitPlace } from '../git/runner';

/** A hunk or a whole file of the change from `base` to the worktree now, as the changes view showed it. */
export interface RevertRequest {
  base: string;
  path: string;
  /** A renamed file's path at `base`. */
  oldPath: string | null;
  target: RevertTarget;
}

/** A revert checked against the worktree: the patch `git apply -R` takes, and what it reverts in words. */
export interface PlannedRevert {
  patch: string;
  what: string;
}

const APPLY = ['apply', '-R', '--whitespace=nowarn'];

/** The line of the file now where the hunk's change begins: its `@@` line's new start, past the context before it. */
function firstChangedLine(hunk: string): number {
  const [first = '', ...body] = hunk.split('\n');
  const start = Number(/^@@ -\d+(?:,\d+)? \+(\d+)/.exec(first)?.[1] ?? 1);
  const context = body.findIndex((line) => !line.startsWith(' '));
  return start + Math.max(context, 0);
}

const INDEX_LINE = /^index ([0-9a-f]+)\.\.([0-9a-f]+)/m;

/**
 * Whether two headers of a file's patch name the same contents on `index` lines (a binary file has
 * no hunks to compare). Ids may be abbreviated to different lengths; a header without the line (a
 * file git does not track yet, as the view draws it) says nothing against it.
 */
function sameObjects(shownHeader: string, currentHeader: string): boolean {
  const shown = INDEX_LINE.exec(shownHeader);
  const current = INDEX_LINE.exec(currentHeader);
  if (!shown || !current) return true;
  const same = (a = '', b = '') => a.startsWith(b) || b.startsWith(a);
  return same(shown[1], current[1]) && same(shown[2], current[2]);
}

/**
 * Checks a revert of `request` against `tree` (the worktree's files now) and builds its patch.
 * Refused, in words, when the path leaves the worktree, the file no longer differs from the base,
 * the hunk is no longer there as shown (or the file no longer reads as shown, for a whole file), or
 * git would not apply it. Changes nothing.
 */
export async function planRevert(git: Git, place: GitPlace, tree: string, request: RevertRequest): Promise<PlannedRevert> {
  const workTree = workTreeOf(place);
  const paths = request.oldPath !== null && request.oldPath !== request.path ? [request.oldPath, request.path] : [request.path];
  const outside = paths.find((file) => {
    const resolved = path.resolve(workTree, file);
    return resolved === workTree || !isInside(workTree, resolved);
  });
  if (outside !== undefined) fail('bad-request', `${outside} is not a path inside the worktree: nothing was reverted.`);
  const base = await git.run(place, ['rev-parse', '--verify', '--quiet', '--end-of-options', `${request.base}^{tree}`], { okCodes: [0, 1, 128] });
  if (base.code !== 0) fail('not-found', `The diff's base ${request.base.slice(0, 12)} is not in the repository: show the changes again.`);
  const revs = [request.base, tree] as const;
  const [current, ...more] = await patchesOf(git, place, revs, paths);
  const stale = `${request.path} changed since the diff was shown`;
  if (current === undefined) fail('conflict', `${request.path} no longer differs from the diff's base: nothing was reverted.`);
  if (more.length > 0) fail('conflict', `${request.path} changed its kind (a file, a link) or is no longer seen as a rename: Drover cannot revert it piece by piece. Nothing was reverted.`);
  const { header, hunks } = splitHunks(current);
  const canonical = hunks.map(canonicalHunk);
  if (request.target.kind === 'hunk') {
    const at = canonical.indexOf(canonicalHunk(request.target.hunk));
    const hunk = hunks[at];
    if (hunk === undefined) fail('conflict', `${stale}: that hunk is no longer there as shown. Nothing was reverted; look at the diff again.`);
    // Git's header creates or deletes the file; any other keeps to the lines (a rename or a mode change stays).
    const addsOrDeletes = /^(?:new|deleted) file mode /m.test(header);
    const fileHeader = addsOrDeletes ? header : `diff --git a/${request.path} b/${request.path}\n--- a/${request.path}\n+++ b/${request.path}`;
    return { patch: `${fileHeader}\n${hunk}\n`, what: `the hunk at line ${firstChangedLine(hunk)} of ${request.path}` };
  }
  const shown = splitHunks(request.target.patch);
  if (shown.hunks.map(canonicalHunk).join('\n') !== canonical.join('\n') || !sameObjects(shown.header, header)) fail('conflict', `${stale}. Nothing was reverted; look at the diff again.`);
  const [whole = ''] = await patchesOf(git, place, revs, paths, true);
  return { patch: whole, what: request.path };
}

/** Fails, saying git's reason, when the planned revert would not apply to the worktree's files. */
export async function checkRevert(git: Git, place: GitPlace, planned: PlannedRevert): Promise<void> {
  const check = await git.run(place, [...APPLY, '--check'], { input: planned.patch, okCodes: [0, 1, 128] });
  if (check.code !== 0) fail('conflict', `Reverting ${planned.what} would not apply to the worktree (${check.stderr.trim().split('\n')[0] ?? ''}). Nothing was reverted.`);
}

/** Writes the revert into the worktree's files (not its index); git applies all of it or nothing. */
export async function applyRevert(git: Git, place: GitPlace, planned: PlannedRevert): Promise<void> {
  await git.run(place, APPLY, { input: planned.patch });
}
