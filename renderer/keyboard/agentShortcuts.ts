import type { KeyPress } from './keyPress';

/**
 * Keys of the agents' terminal grid. One table drives the handling and the shortcut sheet. They
 * read `code`, the physical key, so Alt+digit works on any layout.
 */
export type WorkspaceCommand = { kind: 'focusPane'; index: number } | { kind: 'toggleMaximise' } | { kind: 'openInbox' } | { kind: 'openChanges' };
export type TerminalCommand = 'copy' | 'paste' | 'search';

function isCtrlShift(press: KeyPress): boolean {
  return press.ctrlKey && press.shiftKey && !press.altKey && !press.metaKey;
}

/** Keys that work anywhere on the project page, including inside a terminal. */
export function workspaceCommandFor(press: KeyPress): WorkspaceCommand | null {
  const digit = /^Digit([1-9])$/.exec(press.code);
  if (digit && press.altKey && !press.ctrlKey && !press.metaKey && !press.shiftKey) {
    return { kind: 'focusPane', index: Number(digit[1]) - 1 };
  }
  if (press.code === 'Enter' && isCtrlShift(press)) return { kind: 'toggleMaximise' };
  if (press.code === 'KeyM' && isCtrlShift(press)) return { kind: 'openInbox' };
  if (press.code === 'KeyG' && isCtrlShift(press)) return { kind: 'openChanges' };
  return null;
}

const TERMINAL_KEYS: Readonly<Record<string, TerminalCommand>> = { KeyC: 'copy', KeyV: 'paste', KeyF: 'search' };

/** Keys a focused terminal keeps for itself instead of sending them to the agent. */
export function terminalCommandFor(press: KeyPress): TerminalCommand | null {
  return isCtrlShift(press) ? (TERMINAL_KEYS[press.code] ?? null) : null;
}

export const AGENT_SHORTCUTS = [
  { display: ['Alt', '1…9'], description: 'Focus agent terminal 1 to 9' },
  { display: ['Ctrl', 'Shift', 'Enter'], description: 'Maximise the focused agent, or restore the grid' },
  { display: ['Ctrl', 'Shift', 'M'], description: "Open the focused agent's inbox" },
  { display: ['Ctrl', 'Shift', 'G'], description: "Review the focused agent's changes (an agent with its own worktree)" },
  { display: ['Esc'], description: 'Restore the grid (outside a terminal: there Esc goes to the agent)' },
  { display: ['Ctrl', 'Shift', 'C'], description: 'Copy the terminal selection' },
  { display: ['Ctrl', 'Shift', 'V'], description: 'Paste into the terminal' },
  { display: ['Ctrl', 'Shift', 'F'], description: 'Search the terminal scrollback' },
  { display: ['Enter'], description: 'Start an agent whose session ended again (resumes its conversation)' },
] as const;
