import type { Agent, FormerAgent } from '../../shared/entities/agents';
import type { InboxMessage } from '../../shared/entities/inbox';
import type { Task } from '../../shared/entities/tasks';
import { fail } from './errors';
import type { ProjectRegistry } from './projects/projectRegistry';
import type { ProjectStore, ProjectStores } from './storage/projectStores';

/**
 * Ids of tasks, agents and messages are unique across projects; this finds the project store that
 * holds one. A damaged project database is skipped, so it never hides the other projects' work.
 */
export class Locator {
  constructor(
    private readonly projects: ProjectRegistry,
    private readonly stores: ProjectStores,
  ) {}

  /** Every registered project's store that opens. */
  registeredStores(): ProjectStore[] {
    return this.stores.usable(this.projects.list().projects.map((project) => project.id));
  }

  task(taskId: string): { store: ProjectStore; task: Task } {
    const found = this.find((store) => store.tasks.get(taskId));
    if (!found) fail('not-found', `No task with id ${taskId}`);
    return { store: found.store, task: found.value };
  }

  agent(agentId: string): { store: ProjectStore; agent: Agent } {
    const found = this.find((store) => store.agents.get(agentId));
    if (!found) fail('not-found', `No agent with id ${agentId}`);
    return { store: found.store, agent: found.value };
  }

  formerAgent(agentId: string): { store: ProjectStore; formerAgent: FormerAgent } {
    const found = this.find((store) => store.formerAgents.get(agentId));
    if (!found) fail('not-found', `No removed agent with id ${agentId}`);
    return { store: found.store, formerAgent: found.value };
  }

  message(messageId: string): { store: ProjectStore; message: InboxMessage } {
    const found = this.find((store) => store.inbox.message(messageId));
    if (!found) fail('not-found', `No message with id ${messageId}`);
    return { store: found.store, message: found.value };
  }

  private find<T>(lookup: (store: ProjectStore) => T | undefined): { store: ProjectStore; value: T } | undefined {
    for (const store of this.registeredStores()) {
      const value = lookup(store);
      if (value !== undefined) return { store, value };
    }
    return undefined;
  }
}
