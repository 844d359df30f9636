import type { Agent } from '../../../shared/entities/agents';
import type { Worktree } from '../../../shared/entities/worktrees';
import type { AgentChanges, AgentsDiff } from '../../../shared/turns';
import { fail } from '../errors';
import { changedFiles, lineTotals, withinBudget } from '../git/diff';
import { mergeBase } from '../git/revisions';
import type { Git, RecordedCheckout } from '../git/runner';
import type { Locator } from '../locate';
import { requireUsable } from '../workspaces/agentWorkspace';
import type { WorktreeCheckouts } from '../worktrees/worktreeCheckouts';
import type { Checkpoints } from './checkpoints';

/**
 * Several agents that tried the same task, side by side: what each changed on its branch and how
 * any two of their worktrees differ, both as they are now (committed or not, untracked included).
 */
export class AgentComparison {
  constructor(
    private readonly locator: Locator,
    private readonly git: Git,
    private readonly checkouts: WorktreeCheckouts,
    private readonly checkpoints: Checkpoints,
  ) {}

  async changes(agentIds: readonly string[]): Promise<AgentChanges[]> {
    const found = this.worktreesOf(agentIds);
    return Promise.all(
      found.map(async ({ worktree }) => {
        const checkout = await this.checkouts.of(worktree);
        const [base, now] = await Promise.all([mergeBase(this.git, checkout, `refs/heads/${worktree.parentBranch}`, 'HEAD'), this.checkpoints.tree(checkout)]);
        const files = (await changedFiles(this.git, checkout, [base ?? worktree.baseCommit, now])).map(({ path, status, additions, deletions }) => ({ path, status, additions, deletions }));
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
    const [from, to] = (await Promise.all(this.worktreesOf([fromAgentId, toAgentId]).map(({ worktree }) => this.checkouts.of(worktree)))) as [RecordedCheckout, RecordedCheckout];
    const [fromTree, toTree] = await Promise.all([this.checkpoints.tree(from), this.checkpoints.tree(to)]);
    const files = withinBudget(await changedFiles(this.git, to, [fromTree, toTree]));
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
