import type { Task } from '../../../shared/entities/tasks';
import type { EventBus } from '../events/eventBus';

/**
 * The one place a task's change is announced: the task service announces what it does to a task,
 * the boot reconciliation what it found ended while Drover was away.
 */
export function announceTask(events: EventBus, task: Task): Task {
  events.emit({ name: 'backgroundTaskChanged', seq: task.seq, projectId: task.projectId, task });
  return task;
}
