import type { CallerMethodName } from '../../../shared/contract/callers';
import type { Methods } from '../api';
import { fail } from '../errors';
import type { Locator } from '../locate';
import type { ProjectRegistry } from '../projects/projectRegistry';
import type { SessionService } from '../sessions/sessionService';

/** Who a connection speaks for: the person, until it proves it is one running agent. */
export function callerMethods(sessions: SessionService, projects: ProjectRegistry, locate: Locator): Methods<CallerMethodName> {
  return {
    identifyAgent: ({ agentId, proof }, client) => {
      const { agent } = locate.agent(agentId);
      if (!sessions.identify(agentId, proof)) {
        fail('forbidden', `That is not the proof of ${agent.name}'s running session: an agent speaks only for itself, and only while its session runs.`);
      }
      client.identifyAs({ kind: 'agent', projectId: agent.projectId, agentId: agent.id, agentName: agent.name });
      return { agentId: agent.id, project: projects.get(agent.projectId) };
    },
  };
}
