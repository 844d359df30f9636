import type { TaskState } from '../../shared/entities';
import { TASK_STATUS, type StatusTone } from './taskPresentation';

/** Each state has its own shape as well as its own colour, so colour is never the only cue. */
const ICON_PATHS: Readonly<Record<StatusTone, string>> = {
  queued: 'M8 4.5V8l2.2 1.6',
  running: 'M8 2.5a5.5 5.5 0 0 1 5.5 5.5',
  done: 'M5.2 8.2l2 2 3.6-4',
  failed: 'M5.8 5.8l4.4 4.4M10.2 5.8l-4.4 4.4',
  cancelled: 'M4.2 11.8l7.6-7.6',
  interrupted: 'M8 4.8v3.7M8 10.9v.3',
};

export function StatusIcon({ tone }: { tone: StatusTone }) {
  return (
    <svg className={`status-icon status-icon--${tone}`} viewBox="0 0 16 16" width="12" height="12" aria-hidden="true">
      <circle cx="8" cy="8" r="5.5" className="status-icon__ring" />
      <path d={ICON_PATHS[tone]} className="status-icon__mark" />
    </svg>
  );
}

export function StatusBadge({ state }: { state: TaskState }) {
  const { label, tone } = TASK_STATUS[state];
  return (
    <span className={`status-badge status-badge--${tone}`}>
      <StatusIcon tone={tone} />
      {label}
    </span>
  );
}
