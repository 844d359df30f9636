import type { AgentSession } from '../../shared/entities/sessions';

/**
 * Each agent's state as the CLI names it, by agent id: its session's (`busy`, `ready`, `limited`,
 * `exited`), `needs input` while it asks the person something, `not started` with no session yet.
 */
export function agentStates(sessions: readonly AgentSession[]): (agentId: string) => string {
  const latest = new Map(sessions.map((session) => [session.agentId, session]));
  return (agentId) => {
    const session = latest.get(agentId);
    if (!session) return 'not started';
    return session.needsInput && session.state !== 'exited' ? 'needs input' : session.state;
  };
}
