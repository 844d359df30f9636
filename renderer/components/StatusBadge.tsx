import type { Status } from '../format/tone';
import { StatusIcon } from './StatusIcon';

/** A status in words beside its icon, in its tone's colours: a task's state, an agent's state. */
export function StatusBadge({ status: { label, tone, detail } }: { status: Status }) {
  return (
    <span className="badge" data-tone={tone}>
      <StatusIcon tone={tone} />
      <span className="badge__label">{label}</span>
      {detail && <span className="badge__detail">{detail}</span>}
    </span>
  );
}
