import type { Agent } from '../../shared/entities/agents';
import type { AgentSession } from '../../shared/entities/sessions';
import { NO_WORK, type AgentWork } from '../store/selectors';
import type { EntityMap } from '../store/versioned';
import { AgentStateBadge } from './AgentStateBadge';
import { AgentTaskBadges } from './AgentTaskBadges';
import { InboxBadge } from './InboxBadge';

interface AgentFocusListProps {
  /** The agents not in front. */
  agents: readonly Agent[];
  sessions: EntityMap<AgentSession>;
  workByAgentId: ReadonlyMap<string, AgentWork>;
  onShow(agentId: string): void;
}

/** The focus layout's other agents: each one's header (name, state, role, badges), which brings it in front. */
export function AgentFocusList({ agents, sessions, workByAgentId, onShow }: AgentFocusListProps) {
  return (
    <nav className="agent-focus-list" aria-label="Other agents">
      <ul>
        {agents.map((agent) => {
          const work = workByAgentId.get(agent.id) ?? NO_WORK;
          return (
            <li key={agent.id}>
              <button type="button" className="agent-focus-list__item" onClick={() => onShow(agent.id)}>
                <span className="agent-focus-list__title">
                  <span className="agent-focus-list__name">{agent.name}</span>
                  <AgentStateBadge session={sessions[agent.id]} />
                </span>
                {agent.role && <span className="agent-focus-list__role">{agent.role}</span>}
                <span className="agent-focus-list__badges">
                  {work.newMessages > 0 && <InboxBadge count={work.newMessages} />}
                  <AgentTaskBadges work={work} />
                </span>
              </button>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
