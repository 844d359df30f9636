import { useEffect, useRef } from 'react';
import { GlobalShortcutReader, isTypingTarget, type GlobalCommand } from './shortcuts';

/** Listens on the window for the keys that work anywhere on the page (not inside fields or dialogs). */
export function useGlobalShortcuts(run: (command: GlobalCommand) => void): void {
  const runRef = useRef(run);
  useEffect(() => {
    runRef.current = run;
  });

  useEffect(() => {
    const reader = new GlobalShortcutReader();
    function onKeyDown(event: KeyboardEvent): void {
      if (event.defaultPrevented || isTypingTarget(event.target) || document.querySelector('dialog[open]')) return;
      const command = reader.read(event);
      if (!command) return;
      event.preventDefault();
      runRef.current(command);
    }
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, []);
}
