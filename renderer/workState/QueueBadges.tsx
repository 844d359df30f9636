import { countOf } from '../../shared/plural';
import type { TaskTone } from '../format/tone';
import type { TaskCounts } from './taskQuery';

/** How many tasks wait and run; the visible text is short, the accessible name spells it out. */
export function QueueBadges({ counts }: { counts: TaskCounts }) {
  return (
    <span className="queue-badges">
      <QueuePill tone="running" count={counts.running} text={`${counts.running} running`} name={countOf(counts.running, 'task running', 'tasks running')} />
      <QueuePill tone="queued" count={counts.queued} text={`${counts.queued} queued`} name={countOf(counts.queued, 'task queued', 'tasks queued')} />
    </span>
  );
}

/** Always shown; in its tone's colours only while the count is not zero. */
function QueuePill({ tone, count, text, name }: { tone: TaskTone; count: number; text: string; name: string }) {
  return (
    <span role="img" aria-label={name} className="pill" data-tone={count > 0 ? tone : undefined}>
      {text}
    </span>
  );
}
