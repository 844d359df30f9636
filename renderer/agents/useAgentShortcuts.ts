import { useEffect, useRef } from 'react';
import { isTypingTarget } from '../workState/shortcuts';
import { workspaceCommandFor, type WorkspaceCommand } from './agentShortcuts';

export type AgentsCommand = WorkspaceCommand | { kind: 'restore' };

/**
 * Listens before anything else on the page (capture phase), so the grid's keys work even while a
 * terminal has focus, and the terminal never sees them. `run` says whether it used the key.
 */
export function useAgentShortcuts(run: (command: AgentsCommand) => boolean): void {
  const runRef = useRef(run);
  useEffect(() => {
    runRef.current = run;
  });

  useEffect(() => {
    function onKeyDown(event: KeyboardEvent): void {
      if (document.querySelector('dialog[open]')) return;
      const command: AgentsCommand | null =
        workspaceCommandFor(event) ?? (event.key === 'Escape' && !isTypingTarget(event.target) ? { kind: 'restore' } : null);
      if (!command || !runRef.current(command)) return;
      event.preventDefault();
      event.stopPropagation();
    }
    window.addEventListener('keydown', onKeyDown, { capture: true });
    return () => window.removeEventListener('keydown', onKeyDown, { capture: true });
  }, []);
}
