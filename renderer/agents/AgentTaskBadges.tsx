import { countOf } from '../../shared/plural';
import { CountBadges } from '../components/CountBadges';
import type { AgentWork } from '../store/selectors';
import { resultBadges } from './resultBadges';

/** The agent's own background tasks: how many wait and run, and how the ones it has not read about ended. */
export function AgentTaskBadges({ work }: { work: AgentWork }) {
  const queued = `Queued: ${countOf(work.queued, 'task')}`;
  const running = `Running: ${countOf(work.running, 'task')}`;
  return (
    <CountBadges
      className="agent-task-badges"
      badges={[
        { tone: 'queued', count: work.queued, text: `Queued ${work.queued}`, name: queued, title: queued },
        { tone: 'running', count: work.running, text: `Running ${work.running}`, name: running, title: running },
        ...resultBadges(work.newResults),
      ]}
    />
  );
}
