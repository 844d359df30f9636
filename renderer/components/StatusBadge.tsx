import { UNKNOWN_STATUS, type Status } from '../format/tone';
import { useConnection } from '../store/hooks';
import { StatusIcon } from './StatusIcon';

/**
 * A status in words beside its icon, in its tone's colours: a task's state, an agent's state.
 * While the page is not connected to the host it reads Unknown: the state may have moved on.
 */
export function StatusBadge({ status }: { status: Status }) {
  const online = useConnection() === 'open';
  const { label, tone, detail } = online ? status : UNKNOWN_STATUS;
  return (
    <span className="badge" data-tone={tone}>
      <StatusIcon tone={tone} />
      <span className="badge__label">{label}</span>
      {detail && <span className="badge__detail">{detail}</span>}
    </span>
  );
}
