import type { Agent } from '../../../shared/entities';
import { fail } from '../errors';
import type { EventBus } from '../events/eventBus';
import { newId } from '../ids';
import type { Locator } from '../locate';
import type { ProfileRegistry } from '../profiles/profileRegistry';
import type { ProjectRegistry } from '../projects/projectRegistry';
import type { ProjectStores } from '../storage/projectStores';
import type { SessionService } from '../sessions/sessionService';

/** The agents of each project: their definition (name, role, profile) and whether wakes are held. */
export class AgentService {
  constructor(
    private readonly locator: Locator,
    private readonly projects: ProjectRegistry,
    private readonly stores: ProjectStores,
    private readonly profiles: ProfileRegistry,
    private readonly sessions: SessionService,
    private readonly events: EventBus,
  ) {}

  create(input: { projectId: string; name: string; role: string; profileId: string }): Agent {
    this.projects.get(input.projectId);
    this.profiles.get(input.profileId);
    const store = this.stores.get(input.projectId);
    const name = input.name.trim();
    if (store.agents.byName(name)) fail('conflict', `An agent named ${name} already exists in this project.`);
    return this.announce(store.agents.insert({ id: newId('a'), name, role: input.role, profileId: input.profileId, createdAt: Date.now() }));
  }

  update(input: { agentId: string; name?: string | undefined; role?: string | undefined; profileId?: string | undefined }): Agent {
    const { store, agent } = this.locator.agent(input.agentId);
    const name = input.name?.trim() ?? agent.name;
    const clash = store.agents.byName(name);
    if (clash && clash.id !== agent.id) fail('conflict', `An agent named ${name} already exists in this project.`);
    if (input.profileId) this.profiles.get(input.profileId);
    return this.announce(store.agents.update({ ...agent, name, role: input.role ?? agent.role, profileId: input.profileId ?? agent.profileId }));
  }

  /** Stops the agent's session if it runs, then forgets the agent. */
  async remove(agentId: string): Promise<void> {
    const { store, agent } = this.locator.agent(agentId);
    await this.sessions.forget(agentId);
    const seq = store.agents.remove(agentId);
    this.events.emit({ name: 'agentChanged', seq, projectId: agent.projectId, agentId, agent: null });
  }

  /** A person holds (or releases) automatic wakes of the agent. */
  holdWakes(agentId: string, hold: boolean): Agent {
    const { store, agent } = this.locator.agent(agentId);
    return this.announce(store.agents.update({ ...agent, wakesHeld: hold }));
  }

  private announce(agent: Agent): Agent {
    this.events.emit({ name: 'agentChanged', seq: agent.seq, projectId: agent.projectId, agentId: agent.id, agent });
    return agent;
  }
}
