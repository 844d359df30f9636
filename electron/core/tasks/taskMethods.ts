import type { Methods } from '../api';
import { PerClient } from '../api';
import type { EventBus } from '../events/eventBus';
import type { TaskService } from './taskService';

type TaskMethod = 'createTask' | 'listTasks' | 'getTask' | 'cancelTask' | 'retryTask' | 'readTaskOutput' | 'watchTaskOutput' | 'unwatchTaskOutput';

/** Background tasks: run, list, cancel, retry, read and follow their output. */
export function taskMethods(tasks: TaskService, events: EventBus): Methods<TaskMethod> {
  const watches = new PerClient(
    (client) => {
      const watched = new Set<string>();
      const stop = events.onOutput((chunk) => {
        if (watched.has(chunk.taskId)) client.sendTaskOutput(chunk);
      });
      return { watched, stop };
    },
    ({ watched, stop }) => {
      stop();
      watched.clear();
    },
  );
  return {
    createTask: (params) => tasks.create(params),
    listTasks: ({ projectId, ...request }) => tasks.page(projectId, request),
    getTask: ({ taskId }) => tasks.get(taskId),
    cancelTask: ({ taskId }) => tasks.cancel(taskId),
    retryTask: ({ taskId }) => tasks.retry(taskId),
    readTaskOutput: ({ taskId, ...request }) => tasks.readOutput(taskId, request),
    watchTaskOutput: ({ taskId }, client) => {
      tasks.get(taskId);
      watches.of(client).watched.add(taskId);
      return { taskId };
    },
    unwatchTaskOutput: ({ taskId }, client) => {
      watches.of(client).watched.delete(taskId);
      return { taskId };
    },
  };
}
