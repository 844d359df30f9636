import type { MethodParams, MethodResult } from '../../shared/contract';
import type { InboxMessage } from '../../shared/entities/inbox';
import type { ForgeLink, MergeMethod } from '../../shared/forge';
import type { SliceContext, StateCell } from './slice';
import { applyNewer } from './versioned';
import { updateWorkState, type WorkStates } from './projectWorkState';

export interface ForgeActions {
  /** Pushes the agent's branch and opens its pull request. */
  createPullRequest(params: MethodParams<'createPullRequest'>): Promise<ForgeLink>;
  refreshPullRequest(agentId: string): Promise<ForgeLink>;
  mergePullRequest(agentId: string, method: MergeMethod): Promise<ForgeLink>;
  /** Posts the failed checks or the review comments to the agent's inbox (it is woken with them). */
  sendForgeFeedback(agentId: string, what: 'failed-checks' | 'review-comments'): Promise<InboxMessage>;
  /** After the merge: the agent and its worktree go; its branch only when merged as it is. */
  archiveAgent(agentId: string): Promise<MethodResult<'archiveAgent'>>;
}

/**
 * What a person does with an agent's pull request. The links live in each project's work state
 * (events keep them current); each answer is applied at once so the page never waits for the event.
 */
export function createForgeActions(cell: StateCell<WorkStates>, { bridge }: SliceContext): ForgeActions {
  const put = (link: ForgeLink): ForgeLink => {
    updateWorkState(cell, link.projectId, (slice) => ({ ...slice, forgeLinksByAgentId: applyNewer(slice.forgeLinksByAgentId, link.agentId, link) }));
    return link;
  };
  return {
    createPullRequest: (params) => bridge.call('createPullRequest', params).then(put),
    refreshPullRequest: (agentId) => bridge.call('refreshPullRequest', { agentId }).then(put),
    mergePullRequest: (agentId, method) => bridge.call('mergePullRequest', { agentId, method }).then(put),
    sendForgeFeedback: (agentId, what) => bridge.call('sendForgeFeedback', { agentId, what }),
    // The agent's removal comes as its event, like any removal.
    archiveAgent: (agentId) => bridge.call('archiveAgent', { agentId }),
  };
}
