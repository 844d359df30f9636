import { useCallback, useEffect, useMemo, useState } from 'react';
import { preloadable } from '../components/preloadable';
import type { Agent } from '../../shared/entities/agents';
import type { AgentProfile } from '../../shared/entities/profiles';
import { useAgents, useProfiles, useWorkState } from '../store/hooks';
import { useBridge, useDroverActions } from '../store/StoreContext';
import { entitiesOf } from '../store/versioned';
import type { OpenDialog } from './agentCommands';
import { useAgentCommands } from './useAgentCommands';
import { useAgentPanes } from './useAgentPanes';

// The diff viewer and its syntax highlighting are large: loaded once an agent has a worktree.
let changesModule: typeof import('../worktrees/ChangesDialog') | null = null;
export const changesDialog = preloadable(
  () => import('../worktrees/ChangesDialog'),
  (module) => {
    changesModule = module;
    return module.ChangesDialog;
  },
);

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
  const bridge = useBridge();
  const openDialog = useCallback(
    (next: OpenDialog) => {
      // The host reads the diff while the page draws the view (once the view's code is in).
      if (next.kind === 'changes') changesModule?.readDiffAhead(bridge, next.agentId);
      setDialog(next);
    },
    [bridge],
  );
  const panes = useAgentPanes(projectId, agents);

  useEffect(trackAgentProfiles, [trackAgentProfiles]);
  const hasWorktrees = Object.keys(worktrees).length > 0;
  useEffect(() => {
    if (hasWorktrees) changesDialog.preload().catch(() => {});
  }, [hasWorktrees]);

  // A kept branch an agent works on again (attached) is that agent's now.
  const kept = useMemo(() => {
    const inUse = new Set(Object.values(worktrees).map((worktree) => worktree.branch));
    return entitiesOf(formerAgents).filter((former) => former.keptBranch !== null && !inUse.has(former.keptBranch));
  }, [formerAgents, worktrees]);
  const profilesById = useMemo(() => new Map<string, AgentProfile>(profiles.map((profile) => [profile.id, profile])), [profiles]);

  useAgentCommands(projectId, panes, openDialog);

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
    openDialog,
    closeDialog: () => setDialog(null),
    inboxAgent,
    changes: changesAgent && changesWorktree ? { agent: changesAgent, worktree: changesWorktree } : null,
    takenNames,
  };
}
