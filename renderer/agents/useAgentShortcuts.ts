import { isTypingTarget } from '../keyboard/shortcuts';
import { workspaceCommandFor, type WorkspaceCommand } from '../keyboard/agentShortcuts';
import { useWindowKeyDown } from '../keyboard/useWindowKeyDown';

export type AgentsCommand = WorkspaceCommand | { kind: 'restore' };

/**
 * Listens before anything else on the page (capture phase), so the grid's keys work even while a
 * terminal has focus, and the terminal never sees them. `run` says whether it used the key.
 */
export function useAgentShortcuts(run: (command: AgentsCommand) => boolean): void {
  useWindowKeyDown((event) => {
    // An open dialog or menu has the keys (its Escape closes it, not the maximised pane).
    if (document.querySelector('dialog[open]') || (event.target instanceof Element && event.target.closest('[role="menu"]'))) return;
    const command: AgentsCommand | null =
      workspaceCommandFor(event) ?? (event.key === 'Escape' && !isTypingTarget(event.target) ? { kind: 'restore' } : null);
    if (!command || !run(command)) return;
    event.preventDefault();
    event.stopPropagation();
  }, true);
}
