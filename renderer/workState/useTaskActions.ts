import { useCallback, useState } from 'react';
import type { Task } from '../../shared/entities';
import { errorMessage } from '../format/errorMessage';
import { canCancel, canRetry, taskTitle } from '../format/taskPresentation';
import { useDroverActions } from '../store/StoreContext';

/**
 * Cancel and retry with the rules the UI promises: queued tasks cancel at once, running ones ask
 * first (the caller shows `confirming`), and invalid requests are ignored rather than sent.
 */
export function useTaskActions(onRetried: (task: Task) => void) {
  const { cancelTask, retryTask } = useDroverActions();
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
      if (!canCancel(task)) return;
      if (task.state === 'running') setConfirming(task);
      else void run(`cancel ${taskTitle(task)}`, () => cancelTask(task.id));
    },
    [cancelTask, run],
  );

  const confirmCancel = useCallback(async (task: Task) => {
    await cancelTask(task.id);
  }, [cancelTask]);

  const retry = useCallback(
    (task: Task) => {
      if (!canRetry(task)) return;
      void run(`retry ${taskTitle(task)}`, async () => onRetried(await retryTask(task.id)));
    },
    [retryTask, run, onRetried],
  );

  return { requestCancel, confirmCancel, retry, confirming, stopConfirming: () => setConfirming(null), error };
}
