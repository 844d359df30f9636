import type { ForgeMethodName } from '../../../shared/contract/forge';
import type { Methods } from '../api';
import type { ForgeConnector } from './forgeConnector';
import type { IssueService } from './issueService';
import type { PullRequestService } from './pullRequestService';

/** The forge: connection and token, agents' pull requests, issues in. */
export function forgeMethods(connector: ForgeConnector, pullRequests: PullRequestService, issues: IssueService): Methods<ForgeMethodName> {
  return {
    getForgeStatus: ({ projectId }) => connector.status(projectId),
    setForgeToken: ({ projectId, token }) => connector.setToken(projectId, token),
    draftPullRequest: ({ agentId }) => pullRequests.draft(agentId),
    createPullRequest: ({ agentId, title, body, draft }) => pullRequests.create(agentId, { title, body, draft }),
    refreshPullRequest: ({ agentId }) => pullRequests.refresh(agentId),
    sendForgeFeedback: ({ agentId, what }) => pullRequests.send(agentId, what),
    mergePullRequest: ({ agentId, method }) => pullRequests.merge(agentId, method),
    archiveAgent: ({ agentId }) => pullRequests.archive(agentId),
    listForgeIssues: ({ projectId, search, labels, assignedToMe }) => issues.list(projectId, { search, labels, assignedToMe }),
    startAgentOnIssue: (params) => issues.start(params),
  };
}
