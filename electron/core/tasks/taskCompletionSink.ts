import { isTaskFinished, type Task } from '../../../shared/entities/tasks';
import type { EventBus } from '../events/eventBus';
import type { MediatedInbox } from '../inbox/mediatedInbox';
import type { ProjectStore, ProjectStores } from '../storage/projectStores';
import { describeTaskResult } from './taskResultText';

function postResult(store: ProjectStore, inbox: MediatedInbox, task: Task): void {
  if (!task.ownerAgentId || !isTaskFinished(task.state)) return;
  const owner = store.agents.byIdOrName(task.ownerAgentId);
  if (!owner || store.inbox.resultOfTask(task.id)) return;
  inbox.post(task.projectId, { agentId: owner.id, kind: 'task-result', body: describeTaskResult(task), taskId: task.id });
}

/**
 * Every task with an owner agent posts exactly one task-result message when it ends, however it
 * ends (including at boot reconciliation); the unique index on task-result messages backs this up.
 */
export function connectTaskCompletionSink(events: EventBus, stores: ProjectStores, inbox: MediatedInbox): () => void {
  return events.onEvent((event) => {
    if (event.name === 'backgroundTaskChanged') postResult(stores.get(event.projectId), inbox, event.task);
  });
}

/** Boot: a result lost between a task's end and its message (a crash, a full disk) is posted now. */
export function postMissingResults(store: ProjectStore, inbox: MediatedInbox): number {
  const missing = store.inbox.finishedTasksWithoutResult();
  for (const taskId of missing) {
    const task = store.tasks.get(taskId);
    if (task) postResult(store, inbox, task);
  }
  return missing.length;
}
