import type { KeyPress } from './keyPress';

/** One table drives both the key handling and the shortcut sheet, so the two cannot disagree. */
export type ListCommand = 'next' | 'previous' | 'first' | 'last' | 'open' | 'cancel' | 'retry';
export type GlobalCommand = 'focusPanel' | 'focusSearch' | 'showShortcuts';

interface Shortcut<C> {
  command: C;
  /** Key names as KeyboardEvent.key reports them. */
  keys: readonly string[];
  /** How the sheet shows the keys (each entry one key cap group). */
  display: readonly string[];
  description: string;
}

export const LIST_SHORTCUTS: readonly Shortcut<ListCommand>[] = [
  { command: 'next', keys: ['j', 'ArrowDown'], display: ['j', '↓'], description: 'Select the next task' },
  { command: 'previous', keys: ['k', 'ArrowUp'], display: ['k', '↑'], description: 'Select the previous task' },
  { command: 'first', keys: ['Home'], display: ['Home'], description: 'Select the newest task' },
  { command: 'last', keys: ['End'], display: ['End'], description: 'Select the oldest task' },
  { command: 'open', keys: ['Enter'], display: ['Enter'], description: 'Open the task output' },
  { command: 'cancel', keys: ['c'], display: ['c'], description: 'Cancel the task (asks first when it is running)' },
  { command: 'retry', keys: ['r'], display: ['r'], description: 'Retry a finished task' },
];

/** A task's output dialog answers the list's keys that act on that task. */
export const OUTPUT_SHORTCUTS = LIST_SHORTCUTS.filter((shortcut) => shortcut.command === 'cancel' || shortcut.command === 'retry');

export const GLOBAL_SHORTCUTS: readonly Shortcut<GlobalCommand>[] = [
  { command: 'focusPanel', keys: ['g w'], display: ['g', 'w'], description: 'Focus the work state panel' },
  { command: 'focusSearch', keys: ['/'], display: ['/'], description: 'Search tasks' },
  { command: 'showShortcuts', keys: ['?'], display: ['?'], description: 'Show keyboard shortcuts' },
];

/** Shown in the sheet but handled by the dialogs themselves. */
export const DIALOG_SHORTCUTS = [{ display: ['Esc'], description: 'Close the output, dialog or this sheet' }] as const;

function plain(press: KeyPress): boolean {
  return !press.altKey && !press.ctrlKey && !press.metaKey;
}

export function listCommandFor(press: KeyPress): ListCommand | null {
  if (!plain(press)) return null;
  return LIST_SHORTCUTS.find((shortcut) => shortcut.keys.includes(press.key))?.command ?? null;
}

export function outputCommandFor(press: KeyPress): ListCommand | null {
  if (!plain(press)) return null;
  return OUTPUT_SHORTCUTS.find((shortcut) => shortcut.keys.includes(press.key))?.command ?? null;
}

/**
 * Global keys, including the two-key chord `g w`: feed every key press; `g` arms the chord for
 * the next press only.
 */
export class GlobalShortcutReader {
  private pendingPrefix: string | null = null;

  read(press: KeyPress): GlobalCommand | null {
    const prefix = this.pendingPrefix;
    this.pendingPrefix = null;
    if (!plain(press)) return null;
    const typed = prefix ? `${prefix} ${press.key}` : press.key;
    const match = GLOBAL_SHORTCUTS.find((shortcut) => shortcut.keys.includes(typed));
    if (match) return match.command;
    if (GLOBAL_SHORTCUTS.some((shortcut) => shortcut.keys.some((keys) => keys.startsWith(`${press.key} `)))) {
      this.pendingPrefix = press.key;
    }
    return null;
  }
}

/** Single-letter shortcuts must not fire while someone types into a field (a read-only one takes no typing). */
export function isTypingTarget(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target instanceof HTMLInputElement || target instanceof HTMLTextAreaElement) return !target.readOnly;
  return target.isContentEditable || target instanceof HTMLSelectElement;
}
