import { useState, type FormEvent } from 'react';
import type { Agent } from '../../shared/entities/agents';
import type { Task } from '../../shared/entities/tasks';
import type { Worktree } from '../../shared/entities/worktrees';
import { Field } from '../components/Field';
import { FormActions } from '../components/FormActions';
import { FormError } from '../components/FormError';
import { ModalDialog } from '../components/ModalDialog';
import { useModal } from '../components/useModal';
import { usePendingAction } from '../components/usePendingAction';
import { useDroverActions } from '../store/StoreContext';
import { runTaskProblems, type RunTaskDraft } from './runTaskDraft';

interface RunTaskDialogProps {
  projectId: string;
  projectPath: string;
  agents: readonly Agent[];
  /** Where each agent with a worktree of its own works: its tasks run there by default. */
  worktreesByAgentId: Readonly<Record<string, Worktree>>;
  /** The task runs; the dialog closes next (its `onClose` follows). */
  onCreated(task: Task): void;
  onClose(): void;
}

/**
 * A person's background task: a shell line, run like `drover task run -- 'LINE'`. The host checks
 * what only it can (the folder lies inside the project, the agent exists) and its refusal shows here.
 */
/** The host's rule (and the CLI's), in words: where the task runs when the field is empty, and where a relative one starts. */
function folderRule(owner: Agent | undefined, worktree: Worktree | undefined, projectPath: string): string {
  const home = worktree ? worktree.path : projectPath;
  const where = owner && worktree ? `${owner.name}'s worktree, ${home}` : `the project folder, ${home}`;
  return `Empty: ${where}. A relative folder is taken from there; it must stay inside the project or an agent's worktree.`;
}

export function RunTaskDialog({ projectId, projectPath, agents, worktreesByAgentId, onCreated, onClose }: RunTaskDialogProps) {
  const { createTask } = useDroverActions();
  const [draft, setDraft] = useState<RunTaskDraft>({ command: '', label: '', ownerAgentId: '', cwd: '' });
  const [showProblems, setShowProblems] = useState(false);
  const save = usePendingAction({ clearErrorOnStart: true });
  const dialogRef = useModal();
  const problems = runTaskProblems(draft);
  const shown = showProblems ? problems : {};
  const change = (field: keyof RunTaskDraft) => (event: { target: { value: string } }) => setDraft({ ...draft, [field]: event.target.value });

  async function submit(event: FormEvent<HTMLFormElement>): Promise<void> {
    event.preventDefault();
    setShowProblems(true);
    if (Object.keys(problems).length > 0) return;
    await save.run(async () => {
      const task = await createTask({
        projectId,
        command: draft.command.trim(),
        ...(draft.label.trim() ? { label: draft.label.trim() } : {}),
        ...(draft.ownerAgentId ? { ownerAgentId: draft.ownerAgentId } : {}),
        ...(draft.cwd.trim() ? { cwd: draft.cwd.trim() } : {}),
      });
      onCreated(task);
      dialogRef.current?.close();
    }, 'Drover did not run it: ');
  }

  return (
    <ModalDialog title="Run task" className="run-task-dialog" onClose={onClose} dialogRef={dialogRef}>
      <form className="form-grid" noValidate onSubmit={(event) => void submit(event)}>
        <Field label="Command" note={shown.command ? { text: shown.command, kind: 'error' } : { text: 'A line for your shell, as typed in a terminal.', kind: 'hint' }}>
          {(describedBy) => (
            <input
              className="text-input text-input--mono"
              value={draft.command}
              data-autofocus
              spellCheck={false}
              autoComplete="off"
              placeholder="npm test -- --grep 'a b'"
              aria-invalid={shown.command !== undefined}
              aria-describedby={describedBy}
              onChange={change('command')}
            />
          )}
        </Field>
        <Field label="Label" note={shown.label ? { text: shown.label, kind: 'error' } : null}>
          {(describedBy) => (
            <input
              className="text-input"
              value={draft.label}
              placeholder="e.g. unit tests (optional)"
              aria-invalid={shown.label !== undefined}
              aria-describedby={describedBy}
              onChange={change('label')}
            />
          )}
        </Field>
        <Field label="Owner agent" note={{ text: 'Its inbox gets the result, and Drover wakes it when the task ends.', kind: 'hint' }}>
          {(describedBy) => (
            <select className="select select--field" value={draft.ownerAgentId} aria-describedby={describedBy} onChange={change('ownerAgentId')}>
              <option value="">None (only you)</option>
              {agents.map((agent) => (
                <option key={agent.id} value={agent.id}>
                  {agent.name}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field
          label="Working folder"
          note={{ text: folderRule(agents.find((agent) => agent.id === draft.ownerAgentId), worktreesByAgentId[draft.ownerAgentId], projectPath), kind: 'hint' }}
        >
          {(describedBy) => (
            <input
              className="text-input text-input--mono"
              value={draft.cwd}
              spellCheck={false}
              autoComplete="off"
              placeholder="e.g. packages/api"
              aria-describedby={describedBy}
              onChange={change('cwd')}
            />
          )}
        </Field>
        <FormError message={save.error} />
        <FormActions submitLabel="Run task" pending={save.pending} onCancel={() => dialogRef.current?.close()} />
      </form>
    </ModalDialog>
  );
}
