import type { AgentSession } from '../../shared/entities';
import { useNow } from '../workState/useNow';
import { agentStatus, type AgentTone } from './agentPresentation';

/** Each state has its own shape as well as its own colour, so colour is never the only cue. */
const ICONS: Readonly<Record<AgentTone, string>> = {
  starting: 'M8 2.5v2.2M8 11.3v2.2M2.5 8h2.2M11.3 8h2.2',
  busy: 'M8 2.5a5.5 5.5 0 0 1 5.5 5.5',
  ready: 'M5.2 8.2l2 2 3.6-4',
  'needs-input': 'M6.4 6.3a1.7 1.7 0 1 1 2.3 1.6c-.5.2-.7.6-.7 1.1M8 10.9v.3',
  limited: 'M8 4.8V8l2.2 1.4',
  exited: 'M6 6h4v4H6z',
};

export function AgentStateBadge({ session }: { session: AgentSession | undefined }) {
  const now = useNow(session?.state === 'limited');
  const { label, tone, detail } = agentStatus(session, now);
  return (
    <span className={`agent-badge agent-badge--${tone}`}>
      <svg className={`status-icon agent-icon agent-icon--${tone}`} viewBox="0 0 16 16" width="12" height="12" aria-hidden="true">
        <circle cx="8" cy="8" r="5.5" className="status-icon__ring" />
        <path d={ICONS[tone]} className="status-icon__mark" />
      </svg>
      <span className="agent-badge__label">{label}</span>
      {detail && <span className="agent-badge__detail">{detail}</span>}
    </span>
  );
}
