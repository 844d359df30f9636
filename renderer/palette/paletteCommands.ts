import type { PaletteCommand } from '../components/commandRegistry';

/** The order groups show in; a group not named here comes after, in the order it was offered. */
const GROUP_ORDER = ['Needs you', 'Tasks', 'Agents', 'Project', 'Projects', 'View', 'App', 'Help'];

/** Commands by group, groups in a fixed order (the same commands always sit in the same place). */
export function groupCommands(commands: readonly PaletteCommand[]): [string, PaletteCommand[]][] {
  const groups = new Map<string, PaletteCommand[]>();
  for (const command of commands) {
    const group = groups.get(command.group);
    if (group) group.push(command);
    else groups.set(command.group, [command]);
  }
  const rank = (group: string) => {
    const at = GROUP_ORDER.indexOf(group);
    return at < 0 ? GROUP_ORDER.length : at;
  };
  return [...groups].sort(([a], [b]) => rank(a) - rank(b));
}

const ARIA_KEY_NAMES: Readonly<Record<string, string>> = { Ctrl: 'Control', Esc: 'Escape', '↑': 'ArrowUp', '↓': 'ArrowDown' };

/**
 * A shortcut as `aria-keyshortcuts` spells it ("Control+Alt+N"); a chord of plain keys (`g w`) is
 * two presses, which the attribute writes with a space.
 */
export function ariaKeyShortcuts(keys: readonly string[]): string {
  const named = keys.map((key) => ARIA_KEY_NAMES[key] ?? key);
  const modifiers = new Set(['Control', 'Alt', 'Shift', 'Meta']);
  return named.some((key) => modifiers.has(key)) ? named.join('+') : named.join(' ');
}
