import { useCallback, useEffect, useState } from 'react';
import type { Task } from '../../../shared/entities/tasks';
import { routeHref } from '../../routing';
import { useProjects } from '../../store/hooks';
import { useDroverActions } from '../../store/StoreContext';
import { useOutputViewer } from '../outputViewerStore';
import { TaskEndToast } from './TaskEndToast';
import { addToast, dismissToast, type TaskToast } from './toastList';
import { machineOfPage } from '../../transport/machinePage';

/**
 * A toast for every task seen ending live. Toasts never take focus; they wait while hovered or
 * focused. (The Electron host will add a native notification from main; it needs nothing here.)
 */
/** A toast on another machine's page says which machine, as its panes do. */
function placeOf(projectName: string | null): string | null {
  const machine = machineOfPage();
  return projectName && machine ? `${projectName} on ${machine}` : projectName;
}

export function TaskToasts() {
  const { onTaskEnded, retryTask } = useDroverActions();
  const projects = useProjects().byId;
  const openOutput = useOutputViewer((state) => state.open);
  const [toasts, setToasts] = useState<TaskToast[]>([]);

  useEffect(() => onTaskEnded((task) => setToasts((current) => addToast(current, task))), [onTaskEnded]);

  const dismiss = useCallback((key: string) => setToasts((current) => dismissToast(current, key)), []);

  function viewOutput(task: Task): void {
    dismiss(task.id);
    window.location.hash = routeHref({ page: 'project', projectId: task.projectId });
    openOutput({ projectId: task.projectId, taskId: task.id });
  }

  function retry(task: Task): void {
    dismiss(task.id);
    retryTask(task.id).catch((error: unknown) => console.error('Drover: retry from a toast failed', error));
  }

  return (
    <div className="toast-stack" role="region" aria-label="Notifications">
      {toasts.map((toast) => (
        <TaskEndToast
          key={toast.key}
          task={toast.task}
          projectName={placeOf(projects[toast.task.projectId]?.name ?? null)}
          onRetry={retry}
          onViewOutput={viewOutput}
          onDismiss={() => dismiss(toast.key)}
        />
      ))}
    </div>
  );
}
