import { defaultFilter } from 'cmdk';
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

function words(text: string): string[] {
  return text.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter(Boolean);
}

/** Every word typed starts a word of the command's own name ("retry" in "Retry long"). */
function nameHoldsWords(label: string, search: string): boolean {
  const own = words(label);
  return words(search).every((typed) => own.some((word) => word.startsWith(typed)));
}

/**
 * How well a command matches what was typed (0: not at all): fuzzy over its name, group and
 * keywords, and a command whose own name holds the words typed above every other hit, so that
 * `retry` runs "Retry long" rather than go to a task whose project name happens to spell it.
 */
export function commandScore(command: PaletteCommand, search: string): number {
  const fuzzy = defaultFilter(command.label, search, [command.group, ...(command.keywords ?? [])]);
  return fuzzy > 0 && nameHoldsWords(command.label, search) ? 1 + fuzzy : fuzzy;
}

/**
 * What the palette lists for a search: with nothing typed every command by group; otherwise the
 * commands that match, best first, each group where its best command ranks.
 */
export function matchingCommands(commands: readonly PaletteCommand[], search: string): [string, PaletteCommand[]][] {
  if (!search.trim()) return groupCommands(commands);
  const ranked = commands
    .map((command) => ({ command, score: commandScore(command, search) }))
    .filter(({ score }) => score > 0)
    .sort((a, b) => b.score - a.score);
  const groups = new Map<string, PaletteCommand[]>();
  for (const { command } of ranked) {
    const group = groups.get(command.group);
    if (group) group.push(command);
    else groups.set(command.group, [command]);
  }
  return [...groups];
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
