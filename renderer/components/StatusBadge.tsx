import { UNKNOWN_STATUS, type Status } from '../format/tone';
import { useConnection } from '../store/hooks';
import { StatusIcon } from './StatusIcon';

/**
 * A status in words beside its icon, in its tone's colours: a task's state, an agent's state.
 * While the page is not connected to the host it reads Unknown, as the state may have moved on;
 * a `final` one (a task that ended) cannot, and keeps its words.
 */
export function StatusBadge({ status, final = false }: { status: Status; final?: boolean }) {
  const known = useConnection() === 'open' || final;
  const { label, tone, detail } = known ? status : UNKNOWN_STATUS;
  return (
    <span className="badge" data-tone={tone}>
      <StatusIcon tone={tone} />
      <span className="badge__label">{label}</span>
      {detail && <span className="badge__detail">{detail}</span>}
    </span>
  );
}
