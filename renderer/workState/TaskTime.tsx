import type { Task } from '../../shared/entities/tasks';
import { formatDuration, taskRunTime } from '../../shared/duration';
import { useNow } from '../components/useNow';
import { formatDateTime } from '../format/dateTime';
import { useConnection } from '../store/hooks';

/**
 * Run time: ticking while the task runs, the total once it ended, nothing before it starts; and
 * nothing for a task not ended while the page is not connected (it may have ended meanwhile).
 */
export function TaskTime({ task }: { task: Task }) {
  const known = useConnection() === 'open' || task.endedAt !== null;
  const now = useNow(known && task.endedAt === null && task.startedAt !== null);
  const runTime = known ? taskRunTime(task, now) : null;
  return (
    <span className="task-time" title={`Created ${formatDateTime(task.createdAt)}`}>
      {runTime === null ? '—' : formatDuration(runTime)}
    </span>
  );
}
