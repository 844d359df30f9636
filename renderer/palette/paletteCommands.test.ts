import { describe, expect, it } from 'vitest';
import type { PaletteCommand } from '../components/commandRegistry';
import { ariaKeyShortcuts, groupCommands, matchingCommands } from './paletteCommands';

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

describe('matchingCommands', () => {
  const named = (id: string, group: string, label: string, keywords?: string[]): PaletteCommand => ({ id, group, label, ...(keywords ? { keywords } : {}), run: () => undefined });
  const offered = [
    named('next', 'Needs you', 'Go to the next thing that needs you'),
    named('broken', 'Needs you', 'Go to broken (task failed, history)'),
    named('run', 'Tasks', 'Run task…', ['command', 'shell', 'new']),
    named('retry', 'Tasks', 'Retry long', ['selected', 'again', 'rerun']),
    named('focus', 'View', 'Focus the work state panel', ['tasks', 'list']),
  ];

  it('ranks a command whose own name holds the words typed above fuzzy hits, group by group', () => {
    const listed = matchingCommands(offered, 'retry');
    expect(listed.map(([group, items]) => `${group}: ${items.map((item) => item.id).join(' ')}`)).toEqual(['Tasks: retry', 'Needs you: broken']);
  });

  it('lists every command by group while nothing is typed', () => {
    expect(matchingCommands(offered, '  ').map(([group]) => group)).toEqual(['Needs you', 'Tasks', 'View']);
  });

  it('finds a command by its keywords, below one named so', () => {
    const listed = matchingCommands([...offered, named('tasks-toggle', 'View', 'Show the tasks panel')], 'tasks');
    expect(listed.flatMap(([, items]) => items.map((item) => item.id))).toEqual(['tasks-toggle', 'focus', 'run', 'retry', 'broken']);
  });
});
