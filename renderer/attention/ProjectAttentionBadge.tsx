import { countOf } from '../../shared/plural';
import { CountBadges } from '../components/CountBadges';
import { useAttentionCounts } from '../store/hooks';

/** How many items of the Needs you queue are the project's. */
export function ProjectAttentionBadge({ projectId }: { projectId: string }) {
  return <AttentionCountBadge count={useAttentionCounts().get(projectId) ?? 0} />;
}

/** A count of Needs you items (none shown at zero). */
export function AttentionCountBadge({ count }: { count: number }) {
  const name = `Needs you: ${countOf(count, 'item')}`;
  return <CountBadges className="project-badges" badges={[{ tone: 'needs-input', count, text: count === 1 ? '1 needs you' : `${count} need you`, name, title: name }]} />;
}
