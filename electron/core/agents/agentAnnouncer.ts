import type { Agent } from '../../../shared/entities/agents';
import type { EventBus } from '../events/eventBus';
import type { ProjectStore } from '../storage/projectStores';

/*
 * The one place an agent's change is announced. The agent service makes most changes; the boot
 * removes an agent whose worktree a crash left half-made (the worktree service names it) before the
 * agent service serves anything, so both go through here.
 */

export function announceAgent(events: EventBus, agent: Agent): Agent {
  events.emit({ name: 'agentChanged', seq: agent.seq, projectId: agent.projectId, agentId: agent.id, agent });
  return agent;
}

/** Forgets the agent's row and announces it gone. */
export function removeAgent(events: EventBus, store: ProjectStore, agentId: string): void {
  const seq = store.agents.remove(agentId);
  events.emit({ name: 'agentChanged', seq, projectId: store.projectId, agentId, agent: null });
}
