import { useId, useState, type FormEvent } from 'react';
import { errorMessage } from '../store/errorMessage';
import { useDroverActions } from '../store/StoreContext';
import { FormError } from '../components/FormError';

export function AddProjectForm() {
  const { addProject } = useDroverActions();
  const [path, setPath] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const inputId = useId();
  const hintId = useId();
  const errorId = useId();

  async function submit(event: FormEvent<HTMLFormElement>): Promise<void> {
    event.preventDefault();
    if (pending) return;
    const trimmed = path.trim();
    if (!trimmed) {
      setError('Enter the path of a project folder.');
      return;
    }
    setPending(true);
    setError(null);
    try {
      await addProject(trimmed);
      setPath('');
    } catch (failure) {
      setError(errorMessage(failure));
    } finally {
      setPending(false);
    }
  }

  return (
    <form className="add-project" onSubmit={(event) => void submit(event)} aria-busy={pending}>
      <label htmlFor={inputId} className="field-label">
        Project folder
      </label>
      <div className="add-project__row">
        <input
          id={inputId}
          className="text-input text-input--mono"
          value={path}
          onChange={(event) => setPath(event.target.value)}
          placeholder="/home/you/code/my-app"
          autoComplete="off"
          spellCheck={false}
          aria-invalid={error !== null}
          aria-describedby={error ? `${errorId} ${hintId}` : hintId}
        />
        <button type="submit" className="button button--primary">
          Add project
        </button>
      </div>
      <FormError message={error} id={errorId} />
      <p id={hintId} className="field-hint">
        The absolute path of a folder on the machine running Drover. Adding it changes nothing in the folder.
      </p>
    </form>
  );
}
