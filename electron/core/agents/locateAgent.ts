import type { Agent } from '../../../shared/entities';
import { fail } from '../errors';
import type { ProjectRegistry } from '../projects/projectRegistry';
import type { ProjectStore, ProjectStores } from '../storage/projectStores';
import { registeredStores } from '../projects/registeredStores';

/** Agent ids are unique across projects; finds the project store that holds one. */
export function locateAgent(projects: ProjectRegistry, stores: ProjectStores, agentId: string): { store: ProjectStore; agent: Agent } {
  for (const store of registeredStores(projects, stores)) {
    const agent = store.agents.get(agentId);
    if (agent) return { store, agent };
  }
  fail('not-found', `No agent with id ${agentId}`);
}
