import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Worktree } from '../../../shared/entities/worktrees';
import { commitFiles, git, makeRepo } from '../../../test-support/gitRepo';
import { makeTempDir, removeDir } from '../../../test-support/tempDir';
import { openWorktreeCore, type WorktreeCore } from '../../../test-support/worktreeCore';
import { readWorktreeDiff } from '../git/diff';
import { Git } from '../git/runner';
import { mergeIntoParent } from './worktreeMerge';

/** A branch name `git rebase` would take for its --exec option: a shell command run after each commit. */
const EXEC_BRANCH = '--exec=touch${IFS}pwned';

/** Makes `branch` (a name git's own commands refuse to create) point at `folder`'s HEAD and checks it out there. */
function checkOutRawBranch(folder: string, branch: string): void {
  git(folder, 'update-ref', `refs/heads/${branch}`, 'HEAD');
  git(folder, 'symbolic-ref', 'HEAD', `refs/heads/${branch}`);
}

describe('branch names git would read as options', () => {
  let dir: string;
  let repo: string;
  let external: string;
  let drover: WorktreeCore;
  const pwned = () => [repo, external].filter((folder) => fs.existsSync(path.join(folder, 'pwned')));

  beforeEach(async () => {
    dir = makeTempDir();
    repo = makeRepo(path.join(dir, 'repo'), { 'readme.md': 'hello\n' });
    // A worktree made by hand on a branch named like an option, with work the parent lacks; the parent moves on, so merging rebases.
    external = path.join(dir, 'external');
    git(repo, 'worktree', 'add', '--quiet', '-b', 'scratch', external);
    commitFiles(external, { 'feature.txt': 'the work\n' }, 'the work');
    checkOutRawBranch(external, EXEC_BRANCH);
    git(repo, 'branch', '-D', 'scratch');
    commitFiles(repo, { 'later.txt': 'main moves on\n' }, 'main moves on');
    drover = await openWorktreeCore(dir, repo);
  });
  afterEach(async () => {
    await drover.close();
    removeDir(dir);
  });

  it('refuses to attach a worktree or a branch named like an option, or to start from one', async () => {
    await expect(drover.addAgent('visitor', { kind: 'existing-worktree', path: external })).rejects.toThrow(
      /--exec=touch\$\{IFS\}pwned starts with "-", so git would read it as an option: rename the branch first/,
    );
    git(repo, 'update-ref', 'refs/heads/-f', 'main');
    await expect(drover.addAgent('forced', { kind: 'existing-branch', branch: '-f' })).rejects.toThrow(/-f starts with "-"/);
    await expect(drover.addAgent('from-dash', { kind: 'new-worktree', base: '-f' })).rejects.toThrow(/-f starts with "-"/);
    await expect(drover.addAgent('named', { kind: 'new-worktree', branch: '-f2' })).rejects.toThrow(/-f2 starts with "-"/);
    // A name check-ref-format would only take by expanding it to another branch.
    git(repo, 'checkout', '--quiet', '-b', 'elsewhere');
    git(repo, 'checkout', '--quiet', 'main');
    await expect(drover.addAgent('previous', { kind: 'new-worktree', branch: '@{-1}' })).rejects.toThrow(/@\{-1\} is not a valid branch name/);
    expect((await drover.core.api.getWorkState({ projectId: drover.project.id })).agents).toEqual([]);
    expect(pwned()).toEqual([]);
  });

  it('never passes a branch name to git where it could be read as an option (an agent attached before names were checked)', async () => {
    const gitRunner = new Git(process.env);
    const head = git(external, 'rev-parse', 'HEAD');
    const attached: Worktree = {
      agentId: 'a-attached',
      projectId: drover.project.id,
      path: external,
      folder: external,
      branch: EXEC_BRANCH,
      parentBranch: 'main',
      baseCommit: git(repo, 'rev-parse', 'main~1'),
      state: 'ready',
      ownsFolder: false,
      ownsBranch: false,
      portBase: null,
      changedAt: null,
      createdAt: 0,
      seq: 1,
    };
    const checkout = { workTree: external, gitDir: git(external, 'rev-parse', '--absolute-git-dir') };
    expect((await readWorktreeDiff(gitRunner, checkout, attached)).commits.map((commit) => commit.sha)).toEqual([head]);
    const merged = await mergeIntoParent(gitRunner, checkout, attached, 'visitor', 'rebase', undefined, () => {});
    expect(pwned()).toEqual([]);
    expect(merged).toMatchObject({ commits: 1, commit: git(repo, 'rev-parse', 'main') });
    expect(git(repo, 'log', '--format=%s', '-2')).toBe('the work\nmain moves on');
    expect(git(external, 'symbolic-ref', 'HEAD')).toBe(`refs/heads/${EXEC_BRANCH}`);
  });
});
