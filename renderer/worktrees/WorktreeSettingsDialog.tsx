import { useState, type FormEvent } from 'react';
import { Field } from '../components/Field';
import { FormActions } from '../components/FormActions';
import { FormError } from '../components/FormError';
import { ModalDialog } from '../components/ModalDialog';
import { usePendingAction } from '../components/usePendingAction';
import { formatBytes } from '../format/bytes';
import { useProjectSettings, useWorkState } from '../store/hooks';
import { useDroverActions } from '../store/StoreContext';
import type { DiskUsageState } from './ProjectWorktrees';

interface WorktreeSettingsDialogProps {
  projectId: string;
  disk: DiskUsageState;
  /** "2 worktrees" */
  count: string;
  onMeasure(): void;
  onClose(): void;
}

/** Where the project's agent worktrees are made, what runs in a new one, and the disk each takes. */
export function WorktreeSettingsDialog({ projectId, disk, count, onMeasure, onClose }: WorktreeSettingsDialogProps) {
  const { updateProjectSettings } = useDroverActions();
  const agentsById = useWorkState(projectId, 'agentsById');
  const { settings, error: loadError } = useProjectSettings(projectId);
  // The person's edits; until the first one, the fields show the stored settings.
  const [edited, setEdited] = useState<{ folder: string; setup: string } | null>(null);
  const fields = edited ?? (settings ? { folder: settings.worktreesDir ?? '', setup: settings.worktreeSetupCommand ?? '' } : null);
  const save = usePendingAction({ clearErrorOnStart: true });

  async function submit(event: FormEvent<HTMLFormElement>): Promise<void> {
    event.preventDefault();
    if (!fields) return;
    await save.run(async () => {
      await updateProjectSettings(projectId, { worktreesDir: fields.folder.trim() || null, worktreeSetupCommand: fields.setup.trim() || null });
      onClose();
    });
  }

  return (
    <ModalDialog title="Worktrees" className="worktree-settings-dialog" onClose={onClose}>
      <form className="form-grid" noValidate onSubmit={(event) => void submit(event)}>
        <FormError message={loadError && `Could not read the settings: ${loadError}`} />
        <Field label="Worktrees folder" note={{ text: 'Where new agent worktrees are made, outside the repository. Empty: in Drover’s data folder.', kind: 'hint' }}>
          {(describedBy) => (
            <input
              className="text-input"
              value={fields?.folder ?? ''}
              disabled={!fields}
              placeholder="/absolute/path (default: the data folder)"
              aria-describedby={describedBy}
              onChange={(event) => fields && setEdited({ ...fields, folder: event.target.value })}
            />
          )}
        </Field>
        <Field label="Setup command" note={{ text: 'Runs in each new worktree as a task of its agent, which is woken when it ends (e.g. npm ci).', kind: 'hint' }}>
          {(describedBy) => (
            <input
              className="text-input"
              value={fields?.setup ?? ''}
              disabled={!fields}
              placeholder="none"
              aria-describedby={describedBy}
              onChange={(event) => fields && setEdited({ ...fields, setup: event.target.value })}
            />
          )}
        </Field>
        <section className="worktree-settings-dialog__disk" aria-label="Disk use">
          <p>
            {count}
            {disk.usage && `, ${formatBytes(disk.usage.bytes)} on disk`}
            {disk.error && ` (could not measure: ${disk.error})`}{' '}
            <button type="button" className="button button--ghost button--row" onClick={onMeasure}>
              Measure again
            </button>
          </p>
          {disk.usage && disk.usage.worktrees.length > 0 && (
            <ul>
              {disk.usage.worktrees.map((entry) => (
                <li key={entry.path} title={entry.path}>
                  {agentsById[entry.agentId]?.name ?? entry.agentId}: {formatBytes(entry.bytes)} <code>{entry.path}</code>
                </li>
              ))}
            </ul>
          )}
        </section>
        <FormError message={save.error} />
        <FormActions submitLabel="Save" pending={save.pending || !fields} onCancel={onClose} />
      </form>
    </ModalDialog>
  );
}
