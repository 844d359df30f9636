import { useId, useRef, useState, type FormEvent } from 'react';
import { FormError } from '../components/FormError';
import { usePendingAction } from '../components/usePendingAction';
import { goTo, useFocusRequest } from '../store/focusRequest';
import { useProjects } from '../store/hooks';
import { useBridge, useDroverActions } from '../store/StoreContext';

/**
 * Adds a project by its absolute path and opens its page, whether the folder is new or was already
 * added: the page says which, and for a folder that is no git repository what that means for its
 * agents (the note lives on that page, so it goes with the project).
 */
export function AddProjectForm() {
  const { addProject } = useDroverActions();
  const bridge = useBridge();
  const knownIds = useProjects().byId;
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
    if (!trimmed.startsWith('/')) {
      setError(`${trimmed} is a relative path: give the folder's full path, starting with /.`);
      return;
    }
    await run(async () => {
      const known = knownIds;
      const project = await addProject(trimmed);
      setPath('');
      if (known[project.id]) {
        goTo({ kind: 'project', projectId: project.id, notice: `${project.path} was already added: this is its project.` });
        return;
      }
      const { problem } = await bridge.call('getProjectGit', { projectId: project.id });
      goTo({ kind: 'project', projectId: project.id, notice: problem ? `Added ${project.name}. ${problem}` : `Added ${project.name}.` });
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
          placeholder="e.g. /home/you/code/my-app"
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
        The absolute path (starting with /) of a folder on the machine running Drover. Adding it changes nothing in the folder.
      </p>
    </form>
  );
}
