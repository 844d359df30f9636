import { describe, expect, it } from 'vitest';
import { commitFiles, git, writeFiles } from '../../../test-support/gitRepo';
import { overlapProjectPerTest, TEN_LINES, withLines } from '../../../test-support/overlapProjectPerTest';
import { waitFor } from '../../../test-support/waitFor';
import { hunkRanges, sharedRanges } from './changedLines';

describe('changed lines', () => {
  it('reads the old side of -U0 hunks, an insertion counting as the line it follows', () => {
    const patch = ['diff --git a/f b/f', '--- a/f', '+++ b/f', '@@ -3 +3 @@', '-a', '+b', '@@ -7,2 +7,0 @@', '@@ -9,0 +8,3 @@', '@@ -0,0 +1 @@'].join('\n');
    expect(hunkRanges(patch)).toEqual([
      [3, 3],
      [7, 8],
      [9, 9],
      [1, 1],
    ]);
  });

  it('keeps the lines both change, merged where they touch', () => {
    expect(sharedRanges([[1, 5], [8, 8]], [[4, 9]])).toEqual([[4, 5], [8, 8]]);
    expect(sharedRanges([[1, 2]], [[3, 4]])).toEqual([]);
  });
});

describe('overlap radar (real git)', () => {
  const fixture = overlapProjectPerTest();
  const { addAgent, folderOf, events } = fixture;

  it('reports two agents that commit the same line as a conflicting pair with the shared range, and nothing for one changing another file', async () => {
    const [alpha, beta, gamma] = [await addAgent('alpha'), await addAgent('beta'), await addAgent('gamma')];
    commitFiles(await folderOf(alpha), { 'shared.txt': withLines(TEN_LINES, { 4: 'alpha was here' }) }, 'alpha');
    commitFiles(await folderOf(beta), { 'shared.txt': withLines(TEN_LINES, { 4: 'beta was here' }) }, 'beta');
    commitFiles(await folderOf(gamma), { 'other.txt': withLines(TEN_LINES, { 4: 'gamma was here' }) }, 'gamma');

    const overlaps = await fixture.core.api.listOverlaps({ projectId: fixture.project.id });

    expect(overlaps.pairs).toEqual([
      { agents: [alpha.id, beta.id], agentNames: ['alpha', 'beta'], files: [{ path: 'shared.txt', lines: [[4, 4]] }], conflict: true, conflictFiles: ['shared.txt'] },
    ]);
    expect(overlaps.parentConflicts).toEqual([]);
  });

  it('counts uncommitted and untracked changes as overlaps, though only commits can conflict', async () => {
    const [alpha, beta] = [await addAgent('alpha'), await addAgent('beta')];
    writeFiles(await folderOf(alpha), { 'shared.txt': withLines(TEN_LINES, { 2: 'two', 3: 'three' }), 'new.txt': 'a\nb\n' });
    writeFiles(await folderOf(beta), { 'shared.txt': withLines(TEN_LINES, { 3: 'THREE' }), 'new.txt': 'c\n' });

    const { pairs } = await fixture.core.api.listOverlaps({ projectId: fixture.project.id });

    expect(pairs).toEqual([
      {
        agents: [alpha.id, beta.id],
        agentNames: ['alpha', 'beta'],
        files: [
          { path: 'new.txt', lines: [[1, 1]] },
          { path: 'shared.txt', lines: [[3, 3]] },
        ],
        conflict: false,
        conflictFiles: [],
      },
    ]);
  });

  it('follows the worktrees as they change, and names a branch that conflicts with its parent', async () => {
    const [alpha, beta] = [await addAgent('alpha'), await addAgent('beta')];
    commitFiles(await folderOf(alpha), { 'shared.txt': withLines(TEN_LINES, { 9: 'alpha' }) }, 'alpha');
    commitFiles(await folderOf(beta), { 'shared.txt': withLines(TEN_LINES, { 1: 'beta' }) }, 'beta');
    const apart = await fixture.core.api.listOverlaps({ projectId: fixture.project.id });
    expect(apart.pairs).toMatchObject([{ files: [{ path: 'shared.txt', lines: [] }], conflict: false }]);

    commitFiles(fixture.repo, { 'shared.txt': withLines(TEN_LINES, { 9: 'main moved' }) }, 'main');
    writeFiles(await folderOf(beta), { 'shared.txt': withLines(TEN_LINES, { 1: 'beta', 9: 'beta too' }) });
    const now = await fixture.core.api.listOverlaps({ projectId: fixture.project.id });

    expect(now.pairs).toMatchObject([{ files: [{ path: 'shared.txt', lines: [[9, 9]] }], conflict: false }]);
    expect(now.parentConflicts).toEqual([{ agentId: alpha.id, agentName: 'alpha', branch: git(await folderOf(alpha), 'branch', '--show-current'), parentBranch: 'main', conflictFiles: ['shared.txt'] }]);
  });

  it("announces the project's overlaps when its worktrees' files change, with nobody asking", async () => {
    const [alpha, beta] = [await addAgent('alpha'), await addAgent('beta')];
    const announced = () => events.flatMap((event) => (event.name === 'projectOverlapsChanged' ? [event] : []));
    writeFiles(await folderOf(alpha), { 'shared.txt': withLines(TEN_LINES, { 6: 'alpha' }) });
    writeFiles(await folderOf(beta), { 'shared.txt': withLines(TEN_LINES, { 6: 'beta' }) });

    const change = await waitFor(() => announced().at(-1), 'the overlaps to be announced');
    expect(change).toMatchObject({ projectId: fixture.project.id, pairs: [{ agents: [alpha.id, beta.id], files: [{ path: 'shared.txt', lines: [[6, 6]] }], conflict: false }] });

    writeFiles(await folderOf(beta), { 'shared.txt': TEN_LINES });
    await waitFor(() => announced().at(-1)?.pairs.length === 0, 'the overlap to be announced gone');
    expect(announced().map((event) => event.seq)).toEqual([...announced().map((event) => event.seq)].sort((a, b) => a - b));
  });
});
