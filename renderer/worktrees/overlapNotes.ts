import type { LineRange, OverlapPair, ProjectOverlaps } from '../../shared/overlaps';
import { countOf, listNames } from '../../shared/plural';

/** One thing the radar says of an agent: whom it overlaps or conflicts with, and the details for a tooltip. */
export interface OverlapNote {
  key: string;
  text: string;
  detail: string;
  conflict: boolean;
}

const linesText = (lines: readonly LineRange[]): string => lines.map(([from, to]) => (from === to ? `line ${from}` : `lines ${from}–${to}`)).join(', ');

const filesText = (pair: OverlapPair): string => listNames(pair.files.map((file) => (file.lines.length > 0 ? `${file.path} (${linesText(file.lines)})` : file.path)));

/** A pair in a sentence, as Compare agents lists it. */
export function pairSentence(pair: OverlapPair): string {
  const [first, second] = pair.agentNames;
  return `${first} and ${second} both change ${filesText(pair)}${pair.conflict ? `; merging their branches conflicts in ${listNames(pair.conflictFiles)}.` : '.'}`;
}

/** What the pane header of `agentId` says: each other agent it overlaps (*overlaps beta: 2 files*, *conflicts with beta*), and its parent if it conflicts with it. */
export function overlapNotes(overlaps: ProjectOverlaps | null, agentId: string): OverlapNote[] {
  if (!overlaps) return [];
  const notes: OverlapNote[] = overlaps.pairs.flatMap((pair) => {
    const side = pair.agents.indexOf(agentId);
    if (side < 0) return [];
    const other = pair.agentNames[1 - side] ?? '';
    return [
      {
        key: pair.agents[1 - side] ?? other,
        text: pair.conflict ? `conflicts with ${other}` : `overlaps ${other}: ${countOf(pair.files.length, 'file')}`,
        detail: `Both change ${filesText(pair)}.${pair.conflict ? ` Merging their branches conflicts in ${listNames(pair.conflictFiles)}.` : ''}`,
        conflict: pair.conflict,
      },
    ];
  });
  for (const conflict of overlaps.parentConflicts.filter((entry) => entry.agentId === agentId)) {
    notes.push({
      key: `parent:${conflict.parentBranch}`,
      text: `conflicts with ${conflict.parentBranch}`,
      detail: `Merging ${conflict.branch} into ${conflict.parentBranch} as it is now conflicts in ${listNames(conflict.conflictFiles)}.`,
      conflict: true,
    });
  }
  return notes;
}
