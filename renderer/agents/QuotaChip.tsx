import type { AgentSession } from '../../shared/entities/sessions';
import { useNow } from '../components/useNow';
import { quotaSummary } from '../format/agentPresentation';

/** The plan quota the agent CLI reports (Claude Code for subscribers); nothing when it reports none. */
export function QuotaChip({ session }: { session: AgentSession | undefined }) {
  const now = useNow(Boolean(session?.quota));
  const summary = quotaSummary(session?.state === 'exited' ? null : (session?.quota ?? null), now);
  if (!summary) return null;
  return (
    <span className={`agent-pane__quota${summary.spent ? ' agent-pane__quota--spent' : ''}`} title={summary.detail} aria-label={`Plan quota: ${summary.detail.replace(/\n/g, '; ')}`}>
      {summary.text}
    </span>
  );
}
