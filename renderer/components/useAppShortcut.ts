import { appCommandFor, isTerminalTarget, type AppCommand } from '../keyboard/appShortcuts';
import { useWindowKeyDown } from '../keyboard/useWindowKeyDown';

/**
 * Runs `run` on the app-wide key for `command`, read before anything else on the page (so it works
 * inside a terminal, which never sees it); an open dialog keeps the keyboard to itself.
 */
export function useAppShortcut(command: AppCommand, run: () => void): void {
  useWindowKeyDown((event) => {
    if (appCommandFor(event, isTerminalTarget(event.target)) !== command || document.querySelector('dialog[open]')) return;
    event.preventDefault();
    event.stopPropagation();
    run();
  }, true);
}
