import { describe, expect, it } from 'vitest';
import type { PaletteCommand } from '../components/commandRegistry';
import { ariaKeyShortcuts, groupCommands } from './paletteCommands';

const command = (id: string, group: string): PaletteCommand => ({ id, group, label: id, run: () => undefined });

describe('groupCommands', () => {
  it('keeps each group together, groups in a fixed order, commands in the order offered', () => {
    const grouped = groupCommands([command('theme', 'Other'), command('focus', 'Agents'), command('run', 'Tasks'), command('add', 'Agents'), command('next', 'Needs you')]);
    expect(grouped.map(([group, items]) => `${group}: ${items.map((item) => item.id).join(' ')}`)).toEqual([
      'Needs you: next',
      'Tasks: run',
      'Agents: focus add',
      'Other: theme',
    ]);
  });
});

describe('ariaKeyShortcuts', () => {
  it('spells modifier combinations with + and chords with a space', () => {
    expect(ariaKeyShortcuts(['Ctrl', 'Alt', 'N'])).toBe('Control+Alt+N');
    expect(ariaKeyShortcuts(['g', 'w'])).toBe('g w');
    expect(ariaKeyShortcuts(['Enter'])).toBe('Enter');
  });
});
