import { countOf } from '../../shared/plural';
import { CountBadges } from '../components/CountBadges';
import { taskTitle } from '../format/taskPresentation';
import type { AgentWork } from '../store/selectors';

/** The agent's own background tasks: how many wait and run, and finished ones it has not read about. */
export function AgentTaskBadges({ work }: { work: AgentWork }) {
  const done = work.unreadResults;
  const queued = `Queued: ${countOf(work.queued, 'task')}`;
  const running = `Running: ${countOf(work.running, 'task')}`;
  return (
    <CountBadges
      className="agent-task-badges"
      badges={[
        { tone: 'queued', count: work.queued, text: `Queued ${work.queued}`, name: queued, title: queued },
        { tone: 'running', count: work.running, text: `Running ${work.running}`, name: running, title: running },
        {
          tone: 'done',
          count: done.length,
          text: done.length === 1 ? 'Task done' : `Tasks done ${done.length}`,
          name: `Task done: ${countOf(done.length, 'result')} not read yet`,
          title: `Result not read yet: ${done.map(taskTitle).join(', ')}`,
        },
      ]}
    />
  );
}
