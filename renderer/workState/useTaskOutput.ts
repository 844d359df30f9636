import { useCallback, useEffect } from 'react';
import type { Task } from '../../shared/entities/tasks';
import { taskAttention } from '../store/attention';
import { useDroverActions } from '../store/StoreContext';
import type { EntityMap } from '../store/versioned';
import { useOutputViewer } from './outputViewerStore';

/** The task whose output is open in this project, opening and closing it with its selection. */
export function useTaskOutput(projectId: string, tasksById: EntityMap<Task>, select: (task: Task) => void) {
  const outputTarget = useOutputViewer((state) => state.target);
  const openOutput = useOutputViewer((state) => state.open);
  const closeOutput = useOutputViewer((state) => state.close);
  const outputTask = outputTarget?.projectId === projectId ? tasksById[outputTarget.taskId] : undefined;

  const open = useCallback(
    (task: Task) => {
      select(task);
      openOutput({ projectId, taskId: task.id });
    },
    [select, openOutput, projectId],
  );
  const close = useCallback(() => {
    closeOutput();
    if (outputTask) select(outputTask);
  }, [closeOutput, outputTask, select]);

  // A task whose output the person opened has been looked at: it leaves the Needs you queue.
  const { markHandled } = useDroverActions();
  useEffect(() => {
    const item = outputTask && taskAttention(outputTask);
    if (item) markHandled([item.key]);
  }, [outputTask, markHandled]);

  return { outputTask, open, close };
}
