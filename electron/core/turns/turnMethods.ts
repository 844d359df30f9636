import type { TurnMethodName } from '../../../shared/contract/turns';
import type { Methods } from '../api';
import type { AgentComparison } from './agentComparison';
import type { TurnService } from './turnService';

/** An agent's turns and their checkpoints, restoring one, reverting a hunk or a file, and comparing agents that did the same task. */
export function turnMethods(turns: TurnService, comparison: AgentComparison): Methods<TurnMethodName> {
  return {
    listTurns: ({ agentId }) => ({ agentId, turns: turns.list(agentId) }),
    getTurnDiff: ({ agentId, from, to }) => turns.diff(agentId, from, to),
    restoreTurn: ({ agentId, n }) => turns.restore(agentId, n),
    revertChange: ({ agentId, ...request }) => turns.revert(agentId, request),
    getCheckpointUsage: ({ projectId }) => turns.usage(projectId),
    compareAgents: ({ agentIds }) => comparison.changes(agentIds),
    diffAgents: ({ fromAgentId, toAgentId }) => comparison.diff(fromAgentId, toAgentId),
  };
}
