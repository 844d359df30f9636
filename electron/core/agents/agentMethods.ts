import type { AgentMethodName } from '../../../shared/contract/agents';
import type { Methods } from '../api';
import type { AgentService } from './agentService';

/** Agents' definitions, a removed agent's kept branch, and a person's hold on their wakes. */
export function agentMethods(agents: AgentService): Methods<AgentMethodName> {
  return {
    createAgent: (params) => agents.create(params),
    updateAgent: (params) => agents.update(params),
    removeAgent: async ({ agentId, discardWork, keepBranch }) => ({ agentId, keptBranch: await agents.remove(agentId, { discardWork: discardWork ?? false, keepBranch: keepBranch ?? false }) }),
    deleteKeptBranch: ({ agentId, force }) => agents.deleteKeptBranch(agentId, force),
    holdAgentWakes: ({ agentId, hold }) => ({ agentId, held: agents.holdWakes(agentId, hold).wakesHeld }),
  };
}
