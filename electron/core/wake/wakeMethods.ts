import type { WakeMethodName } from '../../../shared/contract/wake';
import type { Methods } from '../api';
import type { AgentWakeService } from './agentWakeService';

/** A person's wake: deliver an agent's pending messages now. */
export function wakeMethods(wakes: AgentWakeService): Methods<WakeMethodName> {
  return {
    wakeAgent: async ({ agentId }) => ({ agentId, delivered: await wakes.wakeNow(agentId) }),
  };
}
