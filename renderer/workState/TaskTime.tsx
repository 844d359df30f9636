import type { Task } from '../../shared/entities';
import { formatDuration, taskRunTime } from '../../shared/duration';
import { useNow } from '../components/useNow';

/** Run time: ticking while the task runs, the total once it ended, nothing before it starts. */
export function TaskTime({ task }: { task: Task }) {
  const now = useNow(task.endedAt === null && task.startedAt !== null);
  const runTime = taskRunTime(task, now);
  const created = new Date(task.createdAt).toLocaleString();
  return (
    <span className="task-time" title={`Created ${created}`}>
      {runTime === null ? '—' : formatDuration(runTime)}
    </span>
  );
}
