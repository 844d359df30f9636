import type { KeyPress } from './keyPress';

/** Keys that work on every page, even inside an agent's terminal (they are read before it). */
export type AppCommand = 'openPalette' | 'nextAttention';

function only(press: KeyPress, modifiers: { ctrl: boolean; shift: boolean; alt: boolean }): boolean {
  return press.ctrlKey === modifiers.ctrl && press.shiftKey === modifiers.shift && press.altKey === modifiers.alt && !press.metaKey;
}

/**
 * Ctrl+K stays the terminal's (readline's kill-line) while a terminal has focus; Ctrl+Shift+P opens
 * the palette from anywhere. Ctrl+Alt+N reads the physical key, which Alt changes on some layouts.
 */
export function appCommandFor(press: KeyPress, inTerminal: boolean): AppCommand | null {
  const key = press.key.toLowerCase();
  if (key === 'p' && only(press, { ctrl: true, shift: true, alt: false })) return 'openPalette';
  if (key === 'k' && !inTerminal && only(press, { ctrl: true, shift: false, alt: false })) return 'openPalette';
  if (press.code === 'KeyN' && only(press, { ctrl: true, shift: false, alt: true })) return 'nextAttention';
  return null;
}

/** True inside an agent's terminal (xterm keeps its focus in a helper textarea under `.xterm`). */
export function isTerminalTarget(target: EventTarget | null): boolean {
  return target instanceof Element && target.closest('.xterm') !== null;
}

export const APP_SHORTCUTS = [
  { display: ['Ctrl', 'K'], description: 'Open the command palette (outside a terminal, where Ctrl+K stays the agent’s)' },
  { display: ['Ctrl', 'Shift', 'P'], description: 'Open the command palette, from anywhere' },
  { display: ['Ctrl', 'Alt', 'N'], description: 'Go to the next thing that needs you (Needs you queue)' },
] as const;
