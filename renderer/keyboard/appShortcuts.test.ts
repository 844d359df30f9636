import { describe, expect, it } from 'vitest';
import { makeKeyPress } from '../testing/fixtures';
import { appCommandFor } from './appShortcuts';
import type { KeyPress } from './keyPress';

const press = (key: string, code: string, modifiers: Partial<KeyPress> = {}) => makeKeyPress({ key, code, ...modifiers });

describe('appCommandFor', () => {
  it('opens the palette with Ctrl+K outside a terminal and Ctrl+Shift+P anywhere', () => {
    expect(appCommandFor(press('k', 'KeyK', { ctrlKey: true }), false)).toBe('openPalette');
    expect(appCommandFor(press('k', 'KeyK', { ctrlKey: true }), true)).toBeNull();
    expect(appCommandFor(press('P', 'KeyP', { ctrlKey: true, shiftKey: true }), true)).toBe('openPalette');
    expect(appCommandFor(press('p', 'KeyP', { ctrlKey: true }), false)).toBeNull();
    expect(appCommandFor(press('k', 'KeyK', { ctrlKey: true, altKey: true }), false)).toBeNull();
  });

  it('goes to the next item with Ctrl+Alt+N, by the physical key', () => {
    expect(appCommandFor(press('ñ', 'KeyN', { ctrlKey: true, altKey: true }), true)).toBe('nextAttention');
    expect(appCommandFor(press('n', 'KeyN', { ctrlKey: true }), false)).toBeNull();
  });
});
