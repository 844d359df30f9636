import type { Agent, Worktree } from '../../../shared/entities';
import type { AgentChanges, AgentsDiff } from '../../../shared/turns';
import { fail } from '../errors';
import type { Locator } from '../locate';
import { requireUsable } from '../worktrees/agentWorkspace';
import type { Git } from '../worktrees/git';
import { mergeBase } from '../worktrees/repo';
import { changedFiles, lineTotals, withinBudget } from '../worktrees/worktreeDiff';
import type { Checkpoints } from './checkpoints';

/**
 * Several agents that tried the same task, side by side: what each changed on its branch and how
 * any two of their worktrees differ, both as they are now (committed or not, untracked included).
 */
export class AgentComparison {
  constructor(
    private readonly locator: Locator,
    private readonly git: Git,
    private readonly checkpoints: Checkpoints,
  ) {}

  async changes(agentIds: readonly string[]): Promise<AgentChanges[]> {
    const found = this.worktreesOf(agentIds);
    return Promise.all(
      found.map(async ({ worktree }) => {
        const [base, now] = await Promise.all([mergeBase(this.git, worktree.path, `refs/heads/${worktree.parentBranch}`, 'HEAD'), this.checkpoints.tree(worktree.path)]);
        const files = (await changedFiles(this.git, worktree.path, [base ?? worktree.baseCommit, now])).map(({ path, status, additions, deletions }) => ({ path, status, additions, deletions }));
        return {
          agentId: worktree.agentId,
          branch: worktree.branch,
          files,
          ...lineTotals(files),
        };
      }),
    );
  }

  /** From one agent's worktree to another's: what taking the second instead of the first would change. */
  async diff(fromAgentId: string, toAgentId: string): Promise<AgentsDiff> {
    if (fromAgentId === toAgentId) fail('bad-request', 'Pick two different agents to compare.');
    const [fromFolder, toFolder] = this.worktreesOf([fromAgentId, toAgentId]).map(({ worktree }) => worktree.path) as [string, string];
    const [fromTree, toTree] = await Promise.all([this.checkpoints.tree(fromFolder), this.checkpoints.tree(toFolder)]);
    const files = withinBudget(await changedFiles(this.git, toFolder, [fromTree, toTree]));
    return {
      fromAgentId,
      toAgentId,
      files,
      ...lineTotals(files),
    };
  }

  private worktreesOf(agentIds: readonly string[]): { agent: Agent; worktree: Worktree }[] {
    const found = agentIds.map((agentId) => {
      const { store, agent } = this.locator.agent(agentId);
      const worktree = store.worktrees.get(agentId);
      if (!worktree) fail('invalid-state', `${agent.name} works in the project folder, not on a branch of its own, so there is nothing to compare it by.`);
      requireUsable(agent, worktree);
      return { agent, worktree, projectId: store.projectId };
    });
    if (new Set(found.map((entry) => entry.projectId)).size > 1) fail('bad-request', 'Only agents of the same project can be compared.');
    return found;
  }
}
