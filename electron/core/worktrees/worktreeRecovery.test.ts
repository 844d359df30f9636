import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { branchesStartingWith, commitFiles, git, makeRepo } from '../../../test-support/gitRepo';
import { makeTempDir, removeDir } from '../../../test-support/tempDir';
import { openWorktreeCore, type WorktreeCore } from '../../../test-support/worktreeCore';

describe('worktrees at boot', () => {
  let dir: string;
  let repo: string;
  let drover: WorktreeCore;

  beforeEach(async () => {
    dir = makeTempDir();
    repo = makeRepo(path.join(dir, 'repo'), { 'shared.txt': 'one\n' });
    drover = await openWorktreeCore(dir, repo);
  });
  afterEach(async () => {
    await drover.close();
    removeDir(dir);
  });

  it('shows a worktree whose folder lost its .git as missing, and deletes nothing in it', async () => {
    const agent = await drover.addAgent('halved');
    const { path: tree, branch } = await drover.worktreeOf(agent);
    fs.writeFileSync(path.join(tree, 'notes.txt'), 'not in git\n');
    await drover.close();
    fs.rmSync(path.join(tree, '.git'));
    await drover.restart();
    expect(await drover.worktreeOf(agent)).toMatchObject({ state: 'missing', portBase: null });
    expect(fs.readFileSync(path.join(tree, 'notes.txt'), 'utf8')).toBe('not in git\n');
    expect(git(repo, 'worktree', 'list', '--porcelain')).not.toContain(tree);
    expect(branchesStartingWith(repo, branch)).toEqual([branch]);
    await expect(drover.core.api.startAgent({ agentId: agent.id, resume: false })).rejects.toThrow(/is no longer a git checkout \(its branch drover\/halved-\w+ is kept\)/);
  });

  it('leaves alone a rebase Drover did not start', async () => {
    const agent = await drover.addAgent('rebasing');
    const { path: tree } = await drover.worktreeOf(agent);
    commitFiles(tree, { 'shared.txt': 'agent\n' }, 'agent edit');
    commitFiles(repo, { 'shared.txt': 'main\n' }, 'main edit');
    expect(() => git(tree, 'rebase', 'main')).toThrow(/conflict/i);
    const rebaseState = path.join(git(tree, 'rev-parse', '--absolute-git-dir'), 'rebase-merge');
    expect(fs.existsSync(rebaseState)).toBe(true);
    await drover.restart();
    expect(fs.existsSync(rebaseState)).toBe(true);
    expect((await drover.worktreeOf(agent)).state).toBe('ready');
  });
});
