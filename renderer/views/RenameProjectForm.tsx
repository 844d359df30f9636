import { useState, type FormEvent, type KeyboardEvent } from 'react';
import type { Project } from '../../shared/entities/projects';
import { FormError } from '../components/FormError';
import { usePendingAction } from '../components/usePendingAction';
import { useDroverActions } from '../store/StoreContext';

interface RenameProjectFormProps {
  project: Project;
  onDone(): void;
}

export function RenameProjectForm({ project, onDone }: RenameProjectFormProps) {
  const { renameProject } = useDroverActions();
  const [name, setName] = useState(project.name);
  const { pending, error, setError, run } = usePendingAction({ clearErrorOnStart: true });

  async function submit(event: FormEvent<HTMLFormElement>): Promise<void> {
    event.preventDefault();
    if (pending) return;
    const trimmed = name.trim();
    if (!trimmed) {
      setError('A project needs a name.');
      return;
    }
    if (trimmed === project.name) {
      onDone();
      return;
    }
    await run(async () => {
      await renameProject(project.id, trimmed);
      onDone();
    });
  }

  function cancelOnEscape(event: KeyboardEvent<HTMLFormElement>): void {
    if (event.key !== 'Escape') return;
    event.preventDefault();
    onDone();
  }

  return (
    <form className="rename-project" onSubmit={(event) => void submit(event)} onKeyDown={cancelOnEscape}>
      <div className="rename-project__row">
        <input
          className="text-input"
          aria-label="Project name"
          value={name}
          maxLength={200}
          onChange={(event) => setName(event.target.value)}
          autoFocus
          onFocus={(event) => event.target.select()}
          aria-invalid={error !== null}
        />
        <button type="submit" className="button button--primary">
          Save
        </button>
        <button type="button" className="button" onClick={onDone}>
          Cancel
        </button>
      </div>
      <FormError message={error} />
    </form>
  );
}
