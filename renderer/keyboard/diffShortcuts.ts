import type { KeyPress } from './keyPress';

/** Keys of the changes view (an agent's diff). One table drives the handling and the shortcut sheet. */
export type DiffCommand =
  | 'nextFile'
  | 'previousFile'
  | 'nextHunk'
  | 'previousHunk'
  | 'nextTurn'
  | 'previousTurn'
  | 'wholeBranch'
  | 'thisTurn'
  | 'sinceTurn'
  | 'comment'
  | 'openInEditor'
  | 'toggleLayout'
  | 'merge'
  | 'revertHunk'
  | 'revertFile';

export const DIFF_SHORTCUTS: readonly { command: DiffCommand; keys: readonly string[]; display: readonly string[]; description: string }[] = [
  { command: 'nextFile', keys: ['j', ']'], display: ['j', ']'], description: 'Next changed file' },
  { command: 'previousFile', keys: ['k', '['], display: ['k', '['], description: 'Previous changed file' },
  { command: 'nextHunk', keys: ['n'], display: ['n'], description: 'Next hunk' },
  { command: 'previousHunk', keys: ['p', 'N'], display: ['p', 'N'], description: 'Previous hunk' },
  { command: 'nextTurn', keys: ['.'], display: ['.'], description: 'Next (newer) turn' },
  { command: 'previousTurn', keys: [','], display: [','], description: 'Previous (older) turn' },
  { command: 'thisTurn', keys: ['t'], display: ['t'], description: 'Show this turn’s change' },
  { command: 'sinceTurn', keys: ['s'], display: ['s'], description: 'Show everything since this turn' },
  { command: 'wholeBranch', keys: ['w'], display: ['w'], description: 'Show the whole branch' },
  { command: 'comment', keys: ['c'], display: ['c'], description: 'Comment on lines of the selected file' },
  { command: 'openInEditor', keys: ['e'], display: ['e'], description: 'Open the selected file in your editor (at the selected line)' },
  { command: 'toggleLayout', keys: ['u'], display: ['u'], description: 'Unified or split diff' },
  { command: 'revertHunk', keys: ['x'], display: ['x'], description: 'Revert the hunk at the top of the diff' },
  { command: 'revertFile', keys: ['X'], display: ['X'], description: 'Revert the selected file' },
  { command: 'merge', keys: ['m'], display: ['m'], description: 'Merge into the parent branch…' },
];

export function diffCommandFor(press: KeyPress): DiffCommand | null {
  if (press.altKey || press.ctrlKey || press.metaKey) return null;
  return DIFF_SHORTCUTS.find((shortcut) => shortcut.keys.includes(press.key))?.command ?? null;
}
