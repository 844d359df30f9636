import type { Task } from '../../shared/entities/tasks';
import type { PaletteCommand } from '../components/commandRegistry';
import { canCancel, canRetry, taskTitle } from '../format/taskPresentation';
import { GLOBAL_SHORTCUTS, LIST_SHORTCUTS, type GlobalCommand, type ListCommand } from '../keyboard/shortcuts';

/** What a work state command does; the panel maps each to its handler. */
export type TaskAction = 'runTask' | 'open' | 'cancel' | 'retry' | 'focusPanel' | 'focusSearch' | 'showShortcuts';

export type TaskCommand = Omit<PaletteCommand, 'run'> & { action: TaskAction };

function keysOf(shortcuts: readonly { command: ListCommand | GlobalCommand; display: readonly string[] }[], command: ListCommand | GlobalCommand): readonly string[] | undefined {
  return shortcuts.find((shortcut) => shortcut.command === command)?.display;
}

/** What the palette offers for the work state: run a task, act on the selected one, move around the panel. */
export function taskCommands(selected: Task | undefined, selectedCanRunAgain: boolean): TaskCommand[] {
  const group = 'Tasks';
  const commands: TaskCommand[] = [{ id: 'tasks:run', group, label: 'Run task…', keywords: ['command', 'shell', 'new'], action: 'runTask' }];
  if (selected) {
    const title = taskTitle(selected);
    commands.push({ id: 'tasks:open', group, label: `Open the output of ${title}`, shortcut: keysOf(LIST_SHORTCUTS, 'open'), keywords: ['selected', 'log'], action: 'open' });
    if (canCancel(selected)) {
      commands.push({ id: 'tasks:cancel', group, label: `Cancel ${title}`, shortcut: keysOf(LIST_SHORTCUTS, 'cancel'), keywords: ['selected', 'stop', 'kill'], action: 'cancel' });
    }
    if (canRetry(selected) && selectedCanRunAgain) {
      commands.push({ id: 'tasks:retry', group, label: `Retry ${title}`, shortcut: keysOf(LIST_SHORTCUTS, 'retry'), keywords: ['selected', 'again', 'rerun'], action: 'retry' });
    }
  }
  commands.push(
    { id: 'tasks:focus', group: 'View', label: 'Focus the work state panel', shortcut: keysOf(GLOBAL_SHORTCUTS, 'focusPanel'), keywords: ['tasks', 'list'], action: 'focusPanel' },
    { id: 'tasks:search', group: 'View', label: 'Search tasks', shortcut: keysOf(GLOBAL_SHORTCUTS, 'focusSearch'), keywords: ['filter', 'find'], action: 'focusSearch' },
    { id: 'app:shortcuts', group: 'Help', label: 'Keyboard shortcuts', shortcut: keysOf(GLOBAL_SHORTCUTS, 'showShortcuts'), keywords: ['keys', 'help'], action: 'showShortcuts' },
  );
  return commands;
}
