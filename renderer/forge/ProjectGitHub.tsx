import { useMemo, useState } from 'react';
import { usePaletteCommands, type PaletteCommand } from '../components/commandRegistry';
import { useAgents, useWorkState } from '../store/hooks';
import { GitHubSettingsDialog } from './GitHubSettingsDialog';
import { IssuesDialog } from './IssuesDialog';
import { PullRequestDialog } from './PullRequestDialog';

/**
 * The project page's way to GitHub: its connection and settings, and its issues to start agents on;
 * it offers the palette what each agent's pull request chip offers (open one, or show it).
 */
export function ProjectGitHub({ projectId }: { projectId: string }) {
  const [open, setOpen] = useState<'settings' | 'issues' | { agentId: string } | null>(null);
  const agents = useAgents(projectId);
  const worktrees = useWorkState(projectId, 'worktreesByAgentId');
  const forgeLinks = useWorkState(projectId, 'forgeLinksByAgentId');

  const commands = useMemo(
    () =>
      agents.flatMap((agent): PaletteCommand[] => {
        const worktree = worktrees[agent.id];
        const pullRequest = forgeLinks[agent.id]?.pullRequest ?? null;
        if (!worktree?.ownsBranch || (!pullRequest && worktree.state !== 'ready')) return [];
        const label = pullRequest ? `Show ${agent.name}’s pull request #${pullRequest.number}…` : `Open a pull request for ${agent.name}…`;
        return [{ id: `agent:${agent.id}:pull-request`, group: 'Agents', label, keywords: ['github', 'pr', worktree.branch], run: () => setOpen({ agentId: agent.id }) }];
      }),
    [agents, worktrees, forgeLinks],
  );
  usePaletteCommands(commands);

  const pullRequestAgent = typeof open === 'object' && open !== null ? agents.find((agent) => agent.id === open.agentId) : undefined;
  const pullRequestWorktree = pullRequestAgent && worktrees[pullRequestAgent.id];
  return (
    <>
      <button type="button" className="button button--ghost" title="The project's GitHub repository, token and settings" onClick={() => setOpen('settings')}>
        GitHub
      </button>
      <button type="button" className="button button--ghost" title="The project's open GitHub issues: start an agent on one" onClick={() => setOpen('issues')}>
        Issues
      </button>
      {open === 'settings' && <GitHubSettingsDialog projectId={projectId} onClose={() => setOpen(null)} />}
      {open === 'issues' && <IssuesDialog projectId={projectId} onClose={() => setOpen(null)} />}
      {pullRequestAgent && pullRequestWorktree && (
        <PullRequestDialog agent={pullRequestAgent} worktree={pullRequestWorktree} link={forgeLinks[pullRequestAgent.id]} onClose={() => setOpen(null)} />
      )}
    </>
  );
}
