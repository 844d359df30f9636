import type { Methods } from '../api';
import type { AgentService } from './agentService';

type AgentMethod = 'createAgent' | 'updateAgent' | 'removeAgent' | 'holdAgentWakes';

/** Agents' definitions, and a person's hold on their wakes. */
export function agentMethods(agents: AgentService): Methods<AgentMethod> {
  return {
    createAgent: (params) => agents.create(params),
    updateAgent: (params) => agents.update(params),
    removeAgent: async ({ agentId, discardWork, keepBranch }) => ({ agentId, keptBranch: await agents.remove(agentId, { discardWork: discardWork ?? false, keepBranch: keepBranch ?? false }) }),
    holdAgentWakes: ({ agentId, hold }) => ({ agentId, held: agents.holdWakes(agentId, hold).wakesHeld }),
  };
}
