import type { TaskMethodName } from '../../../shared/contract/tasks';
import type { Methods } from '../api';
import { PerClient } from '../api';
import type { EventBus } from '../events/eventBus';
import { TaskOutputFeed } from './taskOutputFeed';
import type { TaskService } from './taskService';

/** Background tasks: run, list, cancel, retry, read and follow their output. */
export function taskMethods(tasks: TaskService, events: EventBus): Methods<TaskMethodName> {
  const watches = new PerClient(
    () => {
      const watched = new Map<string, TaskOutputFeed>();
      const stop = events.onOutput((chunk) => watched.get(chunk.taskId)?.push(chunk.data));
      return { watched, stop };
    },
    ({ watched, stop }) => {
      stop();
      for (const feed of watched.values()) feed.stop();
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
      const { projectId } = tasks.get(taskId);
      const { watched } = watches.of(client);
      if (!watched.has(taskId)) watched.set(taskId, new TaskOutputFeed(taskId, projectId, (chunk) => client.sendTaskOutput(chunk)));
      return { taskId };
    },
    unwatchTaskOutput: ({ taskId }, client) => {
      const { watched } = watches.of(client);
      watched.get(taskId)?.stop();
      watched.delete(taskId);
      return { taskId };
    },
    ackTaskOutput: ({ taskId, bytes }, client) => {
      watches.of(client).watched.get(taskId)?.acknowledge(bytes);
      return { taskId };
    },
  };
}
