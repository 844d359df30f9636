import type { Methods } from '../api';
import type { ForgeConnector } from './forgeConnector';
import type { IssueService } from './issueService';
import type { PullRequestService } from './pullRequestService';

type ForgeMethod =
  | 'getForgeStatus'
  | 'setForgeToken'
  | 'draftPullRequest'
  | 'createPullRequest'
  | 'refreshPullRequest'
  | 'sendForgeFeedback'
  | 'mergePullRequest'
  | 'archiveAgent'
  | 'listForgeIssues'
  | 'startAgentOnIssue';

/** The forge: connection and token, agents' pull requests, issues in. */
export function forgeMethods(connector: ForgeConnector, pullRequests: PullRequestService, issues: IssueService): Methods<ForgeMethod> {
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
