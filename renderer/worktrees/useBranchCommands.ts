import { useMemo, useState } from 'react';
import { saying, usePaletteCommands, type PaletteCommand } from '../components/commandRegistry';
import { useAgents, useWorkState } from '../store/hooks';
import { useBridge } from '../store/StoreContext';
import { pushAgentBranch, sendDiffComments } from './branchActions';

/**
 * The palette's way to what the Changes view offers for each agent whose worktree is ready: merge
 * its branch (the same merge dialog), push it, send the comments on its diff (the same calls),
 * open a file it changed in the person's editor.
 */
export function useBranchCommands(projectId: string) {
  const bridge = useBridge();
  const agents = useAgents(projectId);
  const worktrees = useWorkState(projectId, 'worktreesByAgentId');
  const [mergingId, setMergingId] = useState<string | null>(null);
  const [openingFilesOfId, setOpeningFilesOfId] = useState<string | null>(null);

  const commands = useMemo(
    () =>
      agents.flatMap((agent): PaletteCommand[] => {
        const worktree = worktrees[agent.id];
        if (worktree?.state !== 'ready') return [];
        const id = (action: string) => `agent:${agent.id}:${action}`;
        const group = 'Agents';
        return [
          { id: id('merge'), group, label: `Merge ${agent.name}’s branch into ${worktree.parentBranch}…`, keywords: ['worktree', worktree.branch], run: () => setMergingId(agent.id) },
          { id: id('push'), group, label: `Push ${agent.name}’s branch`, keywords: ['git', 'remote', worktree.branch], run: async () => saying(await pushAgentBranch(bridge, agent.id)) },
          { id: id('send-comments'), group, label: `Send the comments on ${agent.name}’s diff`, keywords: ['review', 'inbox'], run: async () => saying(await sendDiffComments(bridge, agent)) },
          { id: id('open-file'), group, label: `Open file in editor: one ${agent.name} changed…`, keywords: ['diff', 'code', worktree.branch], run: () => setOpeningFilesOfId(agent.id) },
        ];
      }),
    [agents, worktrees, bridge],
  );
  usePaletteCommands(commands);

  const withWorktree = (agentId: string | null) => {
    const agent = agents.find((candidate) => candidate.id === agentId);
    const worktree = agentId === null ? undefined : worktrees[agentId];
    return agent && worktree ? { agent, worktree } : null;
  };
  return {
    merging: withWorktree(mergingId),
    stopMerging: () => setMergingId(null),
    openingFilesOf: withWorktree(openingFilesOfId),
    stopOpeningFiles: () => setOpeningFilesOfId(null),
  };
}
