import { describe, expect, it } from 'vitest';
import { makeKeyPress } from '../testing/fixtures';
import { terminalCommandFor, workspaceCommandFor } from './agentShortcuts';
import type { KeyPress } from './keyPress';

const press = (code: string, modifiers: Partial<KeyPress> = {}) => makeKeyPress({ code, ...modifiers });

describe('workspaceCommandFor', () => {
  it('focuses pane n with Alt+n, counting from zero', () => {
    expect(workspaceCommandFor(press('Digit1', { altKey: true }))).toEqual({ kind: 'focusPane', index: 0 });
    expect(workspaceCommandFor(press('Digit9', { altKey: true }))).toEqual({ kind: 'focusPane', index: 8 });
  });

  it('leaves Alt+0, plain digits and other modifier mixes to the terminal', () => {
    expect(workspaceCommandFor(press('Digit0', { altKey: true }))).toBeNull();
    expect(workspaceCommandFor(press('Digit1'))).toBeNull();
    expect(workspaceCommandFor(press('Digit1', { altKey: true, shiftKey: true }))).toBeNull();
    expect(workspaceCommandFor(press('Digit1', { ctrlKey: true }))).toBeNull();
  });

  it('toggles maximise with Ctrl+Shift+Enter only', () => {
    expect(workspaceCommandFor(press('Enter', { ctrlKey: true, shiftKey: true }))).toEqual({ kind: 'toggleMaximise' });
    expect(workspaceCommandFor(press('Enter'))).toBeNull();
    expect(workspaceCommandFor(press('Enter', { ctrlKey: true }))).toBeNull();
  });

  it("opens the focused agent's changes with Ctrl+Shift+G, leaving Ctrl+G to the terminal", () => {
    expect(workspaceCommandFor(press('KeyG', { ctrlKey: true, shiftKey: true }))).toEqual({ kind: 'openChanges' });
    expect(workspaceCommandFor(press('KeyG', { ctrlKey: true }))).toBeNull();
  });

  it("opens the focused agent's inbox with Ctrl+Shift+M, leaving Ctrl+M (Enter) to the terminal", () => {
    expect(workspaceCommandFor(press('KeyM', { ctrlKey: true, shiftKey: true }))).toEqual({ kind: 'openInbox' });
    expect(workspaceCommandFor(press('KeyM', { ctrlKey: true }))).toBeNull();
  });
});

describe('terminalCommandFor', () => {
  it('keeps Ctrl+Shift+C/V/F for copy, paste and search', () => {
    expect(terminalCommandFor(press('KeyC', { ctrlKey: true, shiftKey: true }))).toBe('copy');
    expect(terminalCommandFor(press('KeyV', { ctrlKey: true, shiftKey: true }))).toBe('paste');
    expect(terminalCommandFor(press('KeyF', { ctrlKey: true, shiftKey: true }))).toBe('search');
  });

  it('sends Ctrl+C (interrupt) and everything else to the agent', () => {
    expect(terminalCommandFor(press('KeyC', { ctrlKey: true }))).toBeNull();
    expect(terminalCommandFor(press('KeyF', { ctrlKey: true, shiftKey: true, altKey: true }))).toBeNull();
    expect(terminalCommandFor(press('KeyX', { ctrlKey: true, shiftKey: true }))).toBeNull();
  });
});
