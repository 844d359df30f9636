import { lineRangesText, type ProjectOverlaps } from '../../shared/overlaps';
import { listNames } from '../../shared/plural';
import { quoted, table } from './terminalText';
import { UsageError } from './usage';

/** `drover worktree overlaps --json`: each pair by its agents' names, its shared files and lines, and whether it conflicts. */
export function overlapsJson(overlaps: ProjectOverlaps): string {
  const pairs = overlaps.pairs.map((pair) => ({ agents: pair.agentNames, files: pair.files, conflict: pair.conflict }));
  return `${JSON.stringify(pairs, null, 2)}\n`;
}

/** `drover worktree overlaps`: a row per pair of agents, then each branch that conflicts with its parent. */
export function overlapsText(overlaps: ProjectOverlaps, projectName: string): string {
  const rows = overlaps.pairs.map((pair) => [
    pair.agentNames.join(', '),
    pair.conflict ? `yes (${listNames(pair.conflictFiles)})` : 'no',
    pair.files.map((file) => (file.lines.length > 0 ? `${quoted(file.path)} (lines ${lineRangesText(file.lines)})` : quoted(file.path))).join('; '),
  ]);
  const pairs = rows.length > 0 ? `${table([['AGENTS', 'CONFLICT', 'FILES BOTH CHANGE'], ...rows])}\n` : `No two agents of ${quoted(projectName)} change the same files.\n`;
  const parents = overlaps.parentConflicts.map(
    (conflict) => `${quoted(conflict.agentName)}'s branch ${quoted(conflict.branch)} conflicts with ${quoted(conflict.parentBranch)} in ${listNames(conflict.conflictFiles)}.\n`,
  );
  return pairs + parents.join('');
}

/** `--alerts on|off`, as a setting. */
export function onOrOff(value: string): boolean {
  if (value !== 'on' && value !== 'off') throw new UsageError(`drover worktree overlaps --alerts takes on or off, not ${value}`);
  return value === 'on';
}

export function conflictAlertsText(on: boolean, projectName: string): string {
  return on
    ? `Conflict alerts are on for ${quoted(projectName)}: two agents whose branches start to conflict need you (Tell both agents, or drover worktree overlaps --tell A,B).\n`
    : `Conflict alerts are off for ${quoted(projectName)}: the radar still shows conflicts on the panes and in drover worktree overlaps.\n`;
}
