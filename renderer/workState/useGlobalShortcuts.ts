import { useState } from 'react';
import { GlobalShortcutReader, isTypingTarget, type GlobalCommand } from '../keyboard/shortcuts';
import { useWindowKeyDown } from '../keyboard/useWindowKeyDown';

/** Listens on the window for the keys that work anywhere on the page (not inside fields or dialogs). */
export function useGlobalShortcuts(run: (command: GlobalCommand) => void): void {
  const [reader] = useState(() => new GlobalShortcutReader());
  useWindowKeyDown((event) => {
    if (event.defaultPrevented || isTypingTarget(event.target) || document.querySelector('dialog[open]')) return;
    const command = reader.read(event);
    if (!command) return;
    event.preventDefault();
    run(command);
  });
}
