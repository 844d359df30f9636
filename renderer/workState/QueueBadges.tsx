import type { TaskCounts } from './taskQuery';
import { countOf } from '../../shared/plural';

/** How many tasks wait and run; the visible text is short, the accessible name spells it out. */
export function QueueBadges({ counts }: { counts: TaskCounts }) {
  return (
    <span className="queue-badges">
      <span
        role="img"
        aria-label={countOf(counts.running, 'task running', 'tasks running')}
        className={`count-pill ${counts.running > 0 ? 'count-pill--running' : ''}`}
      >
        {counts.running} running
      </span>
      <span
        role="img"
        aria-label={countOf(counts.queued, 'task queued', 'tasks queued')}
        className={`count-pill ${counts.queued > 0 ? 'count-pill--queued' : ''}`}
      >
        {counts.queued} queued
      </span>
    </span>
  );
}
