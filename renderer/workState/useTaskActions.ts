import { useCallback, useState } from 'react';
import type { Task } from '../../shared/entities/tasks';
import { errorMessage } from '../format/errorMessage';
import { canCancel, canRetry, taskTitle } from '../format/taskPresentation';
import { useConnection } from '../store/hooks';
import { useDroverActions } from '../store/StoreContext';

/**
 * Cancel and retry with the rules the UI promises: queued tasks cancel at once, running ones ask
 * first (the caller shows `confirming`), and invalid requests are ignored rather than sent (as is
 * everything while the page is not connected to the host: what the task does now is not known).
 */
export function useTaskActions(onRetried: (task: Task) => void) {
  const { cancelTask, retryTask } = useDroverActions();
  const online = useConnection() === 'open';
  const [confirming, setConfirming] = useState<Task | null>(null);
  const [error, setError] = useState<string | null>(null);

  const run = useCallback(async (what: string, action: () => Promise<unknown>) => {
    setError(null);
    try {
      await action();
    } catch (failure) {
      setError(`Could not ${what}: ${errorMessage(failure)}`);
    }
  }, []);

  const requestCancel = useCallback(
    (task: Task) => {
      if (!online || !canCancel(task)) return;
      if (task.state === 'running') setConfirming(task);
      else void run(`cancel ${taskTitle(task)}`, () => cancelTask(task.id));
    },
    [cancelTask, run, online],
  );

  const confirmCancel = useCallback(async (task: Task) => {
    await cancelTask(task.id);
  }, [cancelTask]);

  const retry = useCallback(
    (task: Task) => {
      if (!online || !canRetry(task)) return;
      void run(`retry ${taskTitle(task)}`, async () => onRetried(await retryTask(task.id)));
    },
    [retryTask, run, onRetried, online],
  );

  return { requestCancel, confirmCancel, retry, confirming, stopConfirming: () => setConfirming(null), error };
}
