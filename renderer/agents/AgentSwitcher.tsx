import { useRef, type KeyboardEvent } from 'react';
import type { Agent } from '../../shared/entities/agents';
import type { AgentSession } from '../../shared/entities/sessions';
import { StatusIcon } from '../components/StatusIcon';
import { useNow } from '../components/useNow';
import { agentStatus } from '../format/agentPresentation';
import type { EntityMap } from '../store/versioned';

interface AgentSwitcherProps {
  agents: readonly Agent[];
  sessions: EntityMap<AgentSession>;
  shownId: string | null;
  onShow(agentId: string): void;
}

/** In the tabs layout (a phone's), one pane shows at a time: tabs pick which, each with its agent's state. */
export function AgentSwitcher({ agents, sessions, shownId, onShow }: AgentSwitcherProps) {
  const tabs = useRef(new Map<string, HTMLButtonElement>());
  const now = useNow(false);

  function onKeyDown(event: KeyboardEvent<HTMLDivElement>): void {
    const step = event.key === 'ArrowRight' ? 1 : event.key === 'ArrowLeft' ? -1 : 0;
    if (step === 0) return;
    event.preventDefault();
    const at = agents.findIndex((agent) => agent.id === shownId);
    const next = agents[(at + step + agents.length) % agents.length];
    if (!next) return;
    onShow(next.id);
    tabs.current.get(next.id)?.focus();
  }

  return (
    <div role="tablist" aria-label="Shown agent" className="agent-switcher" onKeyDown={onKeyDown}>
      {agents.map((agent) => {
        const status = agentStatus(sessions[agent.id], now);
        const selected = agent.id === shownId;
        return (
          <button
            key={agent.id}
            ref={(button) => {
              if (button) tabs.current.set(agent.id, button);
              else tabs.current.delete(agent.id);
            }}
            type="button"
            role="tab"
            aria-selected={selected}
            tabIndex={selected ? 0 : -1}
            aria-label={`${agent.name}, ${status.label}`}
            className="agent-switcher__tab"
            data-tone={status.tone}
            onClick={() => onShow(agent.id)}
          >
            <StatusIcon tone={status.tone} />
            {agent.name}
          </button>
        );
      })}
    </div>
  );
}
