import { useId, useState } from 'react';
import { errorMessage } from '../format/errorMessage';
import { useProjectSettings } from '../store/hooks';
import { useDroverActions } from '../store/StoreContext';

const CHOICES = [1, 2, 3, 4, 6, 8, 12, 16];

/** How many of the project's tasks may run at once; the store reads it again after every reconnect. */
export function ConcurrencyControl({ projectId }: { projectId: string }) {
  const { updateProjectSettings } = useDroverActions();
  const { settings, error: loadError } = useProjectSettings(projectId);
  const [pendingValue, setPendingValue] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const selectId = useId();
  const value = pendingValue ?? settings?.taskConcurrency ?? null;
  const problem = error ?? loadError ?? null;

  async function change(next: number): Promise<void> {
    setPendingValue(next);
    setError(null);
    try {
      await updateProjectSettings(projectId, { taskConcurrency: next });
    } catch (failure) {
      setError(errorMessage(failure));
    } finally {
      setPendingValue(null);
    }
  }

  const choices = value === null || CHOICES.includes(value) ? CHOICES : [...CHOICES, value].sort((a, b) => a - b);
  return (
    <span className="concurrency-control" title={problem ?? 'How many tasks of this project run at once'}>
      <label htmlFor={selectId}>Run at once</label>
      <select
        id={selectId}
        className="select"
        value={value ?? ''}
        disabled={value === null}
        aria-invalid={problem !== null}
        onChange={(event) => void change(Number(event.target.value))}
      >
        {value === null && <option value="">…</option>}
        {choices.map((choice) => (
          <option key={choice} value={choice}>
            {choice}
          </option>
        ))}
      </select>
    </span>
  );
}
