import { useEffect, useId, useState } from 'react';
import { errorMessage } from '../format/errorMessage';
import { useConnection } from '../store/hooks';
import { useDroverActions } from '../store/StoreContext';

const CHOICES = [1, 2, 3, 4, 6, 8, 12, 16];

/** How many of the project's tasks may run at once; read again after every reconnect. */
export function ConcurrencyControl({ projectId }: { projectId: string }) {
  const { getProjectSettings, updateProjectSettings } = useDroverActions();
  const connection = useConnection();
  const [value, setValue] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const selectId = useId();

  useEffect(() => {
    if (connection !== 'open') return;
    let current = true;
    getProjectSettings(projectId).then(
      (settings) => current && setValue(settings.taskConcurrency),
      (failure: unknown) => current && setError(errorMessage(failure)),
    );
    return () => {
      current = false;
    };
  }, [connection, projectId, getProjectSettings]);

  async function change(next: number): Promise<void> {
    const previous = value;
    setValue(next);
    setError(null);
    try {
      setValue((await updateProjectSettings(projectId, { taskConcurrency: next })).taskConcurrency);
    } catch (failure) {
      setValue(previous);
      setError(errorMessage(failure));
    }
  }

  const choices = value === null || CHOICES.includes(value) ? CHOICES : [...CHOICES, value].sort((a, b) => a - b);
  return (
    <span className="concurrency-control" title={error ?? 'How many tasks of this project run at once'}>
      <label htmlFor={selectId}>Run at once</label>
      <select
        id={selectId}
        className="select"
        value={value ?? ''}
        disabled={value === null}
        aria-invalid={error !== null}
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
