import type { TaskCounts } from './taskQuery';

function plural(count: number, one: string, many: string): string {
  return `${count} ${count === 1 ? one : many}`;
}

/** How many tasks wait and run; the visible text is short, the accessible name spells it out. */
export function QueueBadges({ counts }: { counts: TaskCounts }) {
  return (
    <span className="queue-badges">
      <span
        role="img"
        aria-label={plural(counts.running, 'task running', 'tasks running')}
        className={`count-pill ${counts.running > 0 ? 'count-pill--running' : ''}`}
      >
        {counts.running} running
      </span>
      <span
        role="img"
        aria-label={plural(counts.queued, 'task queued', 'tasks queued')}
        className={`count-pill ${counts.queued > 0 ? 'count-pill--queued' : ''}`}
      >
        {counts.queued} queued
      </span>
    </span>
  );
}
