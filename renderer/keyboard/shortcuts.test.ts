import { describe, expect, it } from 'vitest';
import { makeKeyPress } from '../testing/fixtures';
import type { KeyPress } from './keyPress';
import { GlobalShortcutReader, listCommandFor, outputCommandFor } from './shortcuts';

const press = (key: string, modifiers: Partial<KeyPress> = {}) => makeKeyPress({ key, ...modifiers });

describe('listCommandFor', () => {
  it('maps vim keys and arrows to the same moves', () => {
    expect(listCommandFor(press('j'))).toBe('next');
    expect(listCommandFor(press('ArrowDown'))).toBe('next');
    expect(listCommandFor(press('k'))).toBe('previous');
    expect(listCommandFor(press('ArrowUp'))).toBe('previous');
    expect(listCommandFor(press('Enter'))).toBe('open');
    expect(listCommandFor(press('c'))).toBe('cancel');
    expect(listCommandFor(press('r'))).toBe('retry');
  });

  it('leaves modified keys (browser and OS shortcuts) alone', () => {
    expect(listCommandFor(press('r', { ctrlKey: true }))).toBeNull();
    expect(listCommandFor(press('c', { metaKey: true }))).toBeNull();
    expect(listCommandFor(press('x'))).toBeNull();
  });
});

describe('outputCommandFor', () => {
  it('takes the list keys that act on the task shown, and no move', () => {
    expect(outputCommandFor(press('c'))).toBe('cancel');
    expect(outputCommandFor(press('r'))).toBe('retry');
    expect(outputCommandFor(press('j'))).toBeNull();
    expect(outputCommandFor(press('Enter'))).toBeNull();
    expect(outputCommandFor(press('c', { ctrlKey: true }))).toBeNull();
  });
});

describe('GlobalShortcutReader', () => {
  it('reads the g w chord only when w follows g directly', () => {
    const reader = new GlobalShortcutReader();
    expect(reader.read(press('g'))).toBeNull();
    expect(reader.read(press('w'))).toBe('focusPanel');
    expect(reader.read(press('w'))).toBeNull();
    reader.read(press('g'));
    reader.read(press('x'));
    expect(reader.read(press('w'))).toBeNull();
  });

  it('reads single keys', () => {
    const reader = new GlobalShortcutReader();
    expect(reader.read(press('?'))).toBe('showShortcuts');
    expect(reader.read(press('/'))).toBe('focusSearch');
    expect(reader.read(press('/', { altKey: true }))).toBeNull();
  });
});
