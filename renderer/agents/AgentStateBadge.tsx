import type { AgentSession } from '../../shared/entities/sessions';
import { StatusBadge } from '../components/StatusBadge';
import { useNow } from '../components/useNow';
import { agentStatus } from '../format/agentPresentation';

/** The agent's latest session state; a usage limit's reset time ticks on the shared clock. */
export function AgentStateBadge({ session }: { session: AgentSession | undefined }) {
  const now = useNow(session?.state === 'limited');
  return <StatusBadge status={agentStatus(session, now)} />;
}
