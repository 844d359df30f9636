import { useEffect, useMemo, useState } from 'react';
import type { Agent, AgentProfile } from '../../shared/entities';
import { useAgents, useProfiles, useWorkState } from '../store/hooks';
import { useDroverActions } from '../store/StoreContext';
import { entitiesOf } from '../store/versioned';
import type { OpenDialog } from './agentCommands';
import { useAgentCommands } from './useAgentCommands';
import { useAgentPanes } from './useAgentPanes';

// The diff viewer and its syntax highlighting are large: loaded once an agent has a worktree.
export const loadChangesDialog = () => import('../worktrees/ChangesDialog');

/**
 * Everything the agents area does besides rendering: its panes, the dialog open, what it loads
 * ahead, and (useAgentCommands) what acts on its agents.
 */
export function useAgentsArea(projectId: string) {
  const agentsById = useWorkState(projectId, 'agentsById');
  const agents = useAgents(projectId);
  const sessions = useWorkState(projectId, 'sessionsByAgentId');
  const worktrees = useWorkState(projectId, 'worktreesByAgentId');
  const formerAgents = useWorkState(projectId, 'formerAgentsById');
  const profiles = useProfiles().list;
  const { trackAgentProfiles } = useDroverActions();
  const [dialog, setDialog] = useState<OpenDialog | null>(null);
  const panes = useAgentPanes(projectId, agents);

  useEffect(trackAgentProfiles, [trackAgentProfiles]);
  const hasWorktrees = Object.keys(worktrees).length > 0;
  useEffect(() => {
    if (hasWorktrees) void loadChangesDialog();
  }, [hasWorktrees]);

  // A kept branch an agent works on again (attached) is that agent's now.
  const kept = useMemo(() => {
    const inUse = new Set(Object.values(worktrees).map((worktree) => worktree.branch));
    return entitiesOf(formerAgents).filter((former) => former.keptBranch !== null && !inUse.has(former.keptBranch));
  }, [formerAgents, worktrees]);
  const profilesById = useMemo(() => new Map<string, AgentProfile>(profiles.map((profile) => [profile.id, profile])), [profiles]);

  useAgentCommands(projectId, panes, setDialog);

  const inboxAgent = dialog?.kind === 'inbox' ? agentsById[dialog.agentId] : undefined;
  const changesAgent = dialog?.kind === 'changes' ? agentsById[dialog.agentId] : undefined;
  const changesWorktree = changesAgent && worktrees[changesAgent.id];
  const takenNames = (except?: Agent) => agents.filter((agent) => agent !== except).map((agent) => agent.name);

  return {
    agents,
    sessions,
    worktrees,
    kept,
    profilesById,
    panes,
    dialog,
    openDialog: setDialog,
    closeDialog: () => setDialog(null),
    inboxAgent,
    changes: changesAgent && changesWorktree ? { agent: changesAgent, worktree: changesWorktree } : null,
    takenNames,
  };
}
