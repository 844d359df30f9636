import { isTaskFinished, type TaskState } from '../../shared/entities/tasks';
import { StatusBadge } from '../components/StatusBadge';
import { TASK_STATUS } from '../format/taskPresentation';

/** A task's state; one that ended cannot move on, so it reads the same while the page is away from the host. */
export function TaskStatusBadge({ state }: { state: TaskState }) {
  return <StatusBadge status={TASK_STATUS[state]} final={isTaskFinished(state)} />;
}
