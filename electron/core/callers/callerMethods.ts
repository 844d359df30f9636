import type { CallerMethodName } from '../../../shared/contract/callers';
import type { Methods } from '../api';
import { fail } from '../errors';
import type { Locator } from '../locate';
import type { ProjectRegistry } from '../projects/projectRegistry';
import type { SessionService } from '../sessions/sessionService';
import type { ProjectStores } from '../storage/projectStores';

/**
 * Who a connection speaks for: the person, until it proves it is one running agent; then that
 * agent for as long as the session whose proof it gave runs.
 */
export function callerMethods(sessions: SessionService, projects: ProjectRegistry, stores: ProjectStores, locate: Locator): Methods<CallerMethodName> {
  return {
    identifyAgent: ({ agentId, proof }, client) => {
      const { agent } = locate.agent(agentId);
      const sessionId =
        sessions.identify(agentId, proof) ??
        fail('forbidden', `That is not the proof of ${agent.name}'s running session: an agent speaks only for itself, and only while its session runs.`);
      const ended = (): string | null => {
        // A removed project's store is closed, and no session of it runs.
        if (!stores.isOpen(agent.projectId)) return `${agent.name}'s project was removed`;
        const current = stores.get(agent.projectId);
        if (!current.agents.get(agentId)) return `${agent.name} was removed`;
        // A session whose record is gone runs no more than one that exited.
        const session = current.sessions.get(sessionId);
        return !session || session.state === 'exited' ? `${agent.name}'s session ended` : null;
      };
      client.identifyAs({ kind: 'agent', projectId: agent.projectId, agentId: agent.id, agentName: agent.name, sessionId, ended });
      return { agentId: agent.id, project: projects.get(agent.projectId) };
    },
  };
}
