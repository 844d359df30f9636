import { useId, useRef, useState, type FormEvent } from 'react';
import { FormError } from '../components/FormError';
import { usePendingAction } from '../components/usePendingAction';
import { useFocusRequest } from '../store/focusRequest';
import { useDroverActions } from '../store/StoreContext';

export function AddProjectForm() {
  const { addProject } = useDroverActions();
  const [path, setPath] = useState('');
  const { pending, error, setError, run } = usePendingAction({ clearErrorOnStart: true });
  const inputId = useId();
  const hintId = useId();
  const errorId = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  useFocusRequest((target) => {
    if (target.kind !== 'add-project' || !inputRef.current) return false;
    inputRef.current.focus();
    return true;
  });

  async function submit(event: FormEvent<HTMLFormElement>): Promise<void> {
    event.preventDefault();
    if (pending) return;
    const trimmed = path.trim();
    if (!trimmed) {
      setError('Enter the path of a project folder.');
      return;
    }
    await run(async () => {
      await addProject(trimmed);
      setPath('');
    });
  }

  return (
    <form className="add-project" onSubmit={(event) => void submit(event)} aria-busy={pending}>
      <label htmlFor={inputId} className="field-label">
        Project folder
      </label>
      <div className="add-project__row">
        <input
          ref={inputRef}
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
