import { useMemo } from 'react';
import { usePaletteCommands } from '../components/commandRegistry';
import { useFocusRequest } from '../store/focusRequest';
import { useAgents, useWorkState } from '../store/hooks';
import { useDroverActions } from '../store/StoreContext';
import { agentCommands, layoutCommands, type AgentCommand, type OpenDialog } from './agentCommands';
import type { AgentPanes } from './useAgentPanes';
import { useAgentShortcuts, type AgentsCommand } from './useAgentShortcuts';

/** What acts on the project's agents from outside their panes: palette commands, the grid's keys and focus requests. */
export function useAgentCommands(projectId: string, panes: AgentPanes, openDialog: (dialog: OpenDialog) => void): void {
  const agentsById = useWorkState(projectId, 'agentsById');
  const agents = useAgents(projectId);
  const sessions = useWorkState(projectId, 'sessionsByAgentId');
  const worktrees = useWorkState(projectId, 'worktreesByAgentId');
  const mergeQueue = useWorkState(projectId, 'mergeQueueByAgentId');
  const { startAgent, stopAgent, restartAgent, holdAgentWakes, queueForMerge, removeFromMergeQueue } = useDroverActions();
  const { showPane, focusPane, focusedAgentId, maximised, setMaximisedId, phone, layout, setLayout } = panes;

  useFocusRequest((target) => {
    if (target.kind !== 'agent' || target.projectId !== projectId || !agentsById[target.agentId]) return false;
    showPane(target.agentId);
    return true;
  });

  const commands = useMemo(() => {
    const run = (command: AgentCommand): void | Promise<unknown> => {
      if (!('agent' in command)) return openDialog({ kind: command.action });
      const { agent } = command;
      switch (command.action) {
        case 'focus':
          return showPane(agent.id);
        case 'start':
          return startAgent(agent.id, true);
        case 'stop':
          return stopAgent(agent.id);
        case 'restart':
          return restartAgent(agent.id);
        case 'inbox':
        case 'changes':
          return openDialog({ kind: command.action, agentId: agent.id });
        case 'queue':
          return queueForMerge(agent.id);
        case 'unqueue':
          return removeFromMergeQueue(agent.id);
        case 'hold':
        case 'release':
          return holdAgentWakes(agent.id, command.action === 'hold');
        case 'edit':
        case 'remove':
          return openDialog({ kind: command.action, agent });
      }
    };
    const agentActions = agentCommands(agents, sessions, worktrees, mergeQueue).map((command) => ({ ...command, run: () => run(command) }));
    // A phone shows one pane at a time whatever the layout.
    const layouts = phone ? [] : layoutCommands(layout).map((command) => ({ ...command, run: () => setLayout(command.layout) }));
    return [...agentActions, ...layouts];
  }, [agents, sessions, worktrees, mergeQueue, startAgent, stopAgent, restartAgent, holdAgentWakes, queueForMerge, removeFromMergeQueue, showPane, openDialog, phone, layout, setLayout]);
  usePaletteCommands(commands);

  useAgentShortcuts((command: AgentsCommand) => {
    if (command.kind === 'focusPane') {
      const agent = agents[command.index];
      if (!agent) return false;
      showPane(agent.id);
      return true;
    }
    if (command.kind === 'openInbox') {
      const agentId = focusedAgentId();
      if (!agentId) return false;
      openDialog({ kind: 'inbox', agentId });
      return true;
    }
    if (command.kind === 'openChanges') {
      const agentId = focusedAgentId();
      if (!agentId || worktrees[agentId]?.state !== 'ready') return false;
      openDialog({ kind: 'changes', agentId });
      return true;
    }
    if (command.kind === 'toggleMaximise') {
      if (layout !== 'grid') return false;
      const target = maximised ? null : focusedAgentId();
      setMaximisedId(target);
      const keepFocusOn = maximised?.id ?? target;
      if (keepFocusOn) focusPane(keepFocusOn);
      return true;
    }
    if (!maximised || layout !== 'grid') return false;
    setMaximisedId(null);
    return true;
  });
}
