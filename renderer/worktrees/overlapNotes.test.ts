import { describe, expect, it } from 'vitest';
import type { ProjectOverlaps } from '../../shared/overlaps';
import { overlapNotes, pairSentence } from './overlapNotes';

const overlaps: ProjectOverlaps = {
  projectId: 'p-aaaaaa',
  pairs: [
    {
      agents: ['a-alpha', 'a-beta'],
      agentNames: ['alpha', 'beta'],
      files: [
        { path: 'a.ts', lines: [[3, 5]] },
        { path: 'b.ts', lines: [] },
      ],
      conflict: false,
      conflictFiles: [],
    },
    { agents: ['a-alpha', 'a-gamma'], agentNames: ['alpha', 'gamma'], files: [{ path: 'c.ts', lines: [[7, 7]] }], conflict: true, conflictFiles: ['c.ts'] },
  ],
  parentConflicts: [{ agentId: 'a-beta', agentName: 'beta', branch: 'drover/beta', parentBranch: 'main', conflictFiles: ['d.ts'] }],
};

describe('overlap notes', () => {
  it('names, for each agent, the others it overlaps or conflicts with, and its parent when it conflicts with it', () => {
    expect(overlapNotes(overlaps, 'a-alpha').map((note) => note.text)).toEqual(['overlaps beta: 2 files', 'conflicts with gamma']);
    expect(overlapNotes(overlaps, 'a-beta').map((note) => [note.text, note.detail])).toEqual([
      ['overlaps alpha: 2 files', 'Both change a.ts (lines 3–5), b.ts.'],
      ['conflicts with main', 'Merging drover/beta into main as it is now conflicts in d.ts.'],
    ]);
    expect(overlapNotes(overlaps, 'a-delta')).toEqual([]);
    expect(overlapNotes(null, 'a-alpha')).toEqual([]);
  });

  it('says a pair in a sentence for Compare agents', () => {
    expect(pairSentence(overlaps.pairs[1] as ProjectOverlaps['pairs'][number])).toBe('alpha and gamma both change c.ts (line 7); merging their branches conflicts in c.ts.');
  });
});
