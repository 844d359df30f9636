import { useEffect, useId, useState, type FormEvent } from 'react';
import { MAX_CHECKPOINTS_KEPT, type ProjectSettings } from '../../shared/entities/projects';
import type { WorktreeDiskUsage } from '../../shared/entities/worktrees';
import { countOf } from '../../shared/plural';
import type { CheckpointUsage } from '../../shared/turns';
import { Field } from '../components/Field';
import { FormActions } from '../components/FormActions';
import { FormError } from '../components/FormError';
import { ModalDialog } from '../components/ModalDialog';
import { usePendingAction } from '../components/usePendingAction';
import { formatBytes } from '../format/bytes';
import { errorMessage } from '../format/errorMessage';
import { changedSettings } from '../store/changedSettings';
import { useProjectSettings, useWorkState } from '../store/hooks';
import { useBridge, useDroverActions } from '../store/StoreContext';

/** The worktrees' disk use as last measured, or why it could not be. */
export interface DiskUsageState {
  usage: WorktreeDiskUsage | null;
  error: string | null;
}

interface WorktreeSettingsDialogProps {
  projectId: string;
  disk: DiskUsageState;
  /** "2 worktrees" */
  count: string;
  onMeasure(): void;
  onClose(): void;
}

interface Fields {
  folder: string;
  setup: string;
  mergeCheck: string;
  conflictAlerts: boolean;
  turnsKept: string;
  daysKept: string;
}

/** A whole number from `min` to `max` typed into a field, or null. */
function wholeNumber(text: string, min: number, max: number): number | null {
  const value = Number(text.trim());
  return /^\d+$/.test(text.trim()) && value >= min && value <= max ? value : null;
}

/**
 * Where the project's agent worktrees are made, what runs in a new one, what checks a branch the
 * merge queue lands, whether two agents' branches that start to conflict need the person, how many checkpoints of their turns are kept, and the disk each takes.
 */
export function WorktreeSettingsDialog({ projectId, disk, count, onMeasure, onClose }: WorktreeSettingsDialogProps) {
  const { updateProjectSettings } = useDroverActions();
  const bridge = useBridge();
  const agentsById = useWorkState(projectId, 'agentsById');
  const { settings, error: loadError } = useProjectSettings(projectId);
  // The person's edits; until the first one, the fields show the stored settings.
  const [edited, setEdited] = useState<Fields | null>(null);
  const fields: Fields | null =
    edited ??
    (settings
      ? {
          folder: settings.worktreesDir ?? '',
          setup: settings.worktreeSetupCommand ?? '',
          mergeCheck: settings.mergeCheckCommand,
          conflictAlerts: settings.conflictAlerts,
          turnsKept: String(settings.checkpointTurnsKept),
          daysKept: settings.checkpointDaysKept === null ? '' : String(settings.checkpointDaysKept),
        }
      : null);
  const save = usePendingAction({ clearErrorOnStart: true });
  const conflictHintId = useId();
  const [checkpoints, setCheckpoints] = useState<{ usage: CheckpointUsage | null; error: string | null }>({ usage: null, error: null });

  useEffect(() => {
    let current = true;
    bridge.call('getCheckpointUsage', { projectId }).then(
      (usage) => current && setCheckpoints({ usage, error: null }),
      (failure: unknown) => current && setCheckpoints({ usage: null, error: errorMessage(failure) }),
    );
    return () => {
      current = false;
    };
  }, [bridge, projectId]);

  async function submit(event: FormEvent<HTMLFormElement>): Promise<void> {
    event.preventDefault();
    if (!fields) return;
    const turnsKept = wholeNumber(fields.turnsKept, 1, MAX_CHECKPOINTS_KEPT);
    const daysKept = fields.daysKept.trim() === '' ? null : wholeNumber(fields.daysKept, 1, 3650);
    if (turnsKept === null) {
      save.setError(`Checkpoints kept must be a whole number from 1 to ${MAX_CHECKPOINTS_KEPT}.`);
      return;
    }
    if (daysKept === null && fields.daysKept.trim() !== '') {
      save.setError('Days kept must be a whole number from 1 to 3650, or empty to keep checkpoints by count only.');
      return;
    }
    await save.run(async () => {
      const entered: Partial<ProjectSettings> = {
        worktreesDir: fields.folder.trim() || null,
        worktreeSetupCommand: fields.setup.trim() || null,
        mergeCheckCommand: fields.mergeCheck.trim(),
        conflictAlerts: fields.conflictAlerts,
        checkpointTurnsKept: turnsKept,
        checkpointDaysKept: daysKept,
      };
      // Only what the person changed: a setting changed elsewhere meanwhile (the CLI) is not written back.
      await updateProjectSettings(projectId, settings ? changedSettings(settings, entered) : entered);
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
              placeholder="e.g. /srv/worktrees"
              aria-describedby={describedBy}
              onChange={(event) => fields && setEdited({ ...fields, folder: event.target.value })}
            />
          )}
        </Field>
        <Field label="Setup command" note={{ text: 'Runs in each new worktree as a task of its agent, which is woken when it ends.', kind: 'hint' }}>
          {(describedBy) => (
            <input
              className="text-input"
              value={fields?.setup ?? ''}
              disabled={!fields}
              placeholder="e.g. npm ci"
              aria-describedby={describedBy}
              onChange={(event) => fields && setEdited({ ...fields, setup: event.target.value })}
            />
          )}
        </Field>
        <Field
          label="Merge check command"
          note={{ text: 'The merge queue runs it in an agent’s worktree after rebasing its branch, and lands the branch only if it passes. Empty: no check.', kind: 'hint' }}
        >
          {(describedBy) => (
            <input
              className="text-input"
              value={fields?.mergeCheck ?? ''}
              disabled={!fields}
              placeholder="e.g. npm test"
              aria-describedby={describedBy}
              onChange={(event) => fields && setEdited({ ...fields, mergeCheck: event.target.value })}
            />
          )}
        </Field>
        <label className="settings-check">
          <input
            type="checkbox"
            checked={fields?.conflictAlerts ?? false}
            disabled={!fields}
            aria-describedby={conflictHintId}
            onChange={(event) => fields && setEdited({ ...fields, conflictAlerts: event.target.checked })}
          />
          Conflict alerts
        </label>
        <p id={conflictHintId} className="field-hint">
          When two agents’ branches start to conflict, they need you, with <em>Tell both agents</em>: a note to each naming the files, the lines and the other agent.
        </p>
        <div className="worktree-settings-dialog__checkpoints">
          <Field label="Checkpoints kept per agent" note={{ text: 'A checkpoint of the worktree is taken at the end of each turn; older ones are pruned.', kind: 'hint' }}>
            {(describedBy) => (
              <input
                className="text-input"
                inputMode="numeric"
                value={fields?.turnsKept ?? ''}
                disabled={!fields}
                aria-describedby={describedBy}
                onChange={(event) => fields && setEdited({ ...fields, turnsKept: event.target.value })}
              />
            )}
          </Field>
          <Field label="Days kept" note={{ text: 'Empty: by count only. A checkpoint that alone holds commits no branch has is never pruned.', kind: 'hint' }}>
            {(describedBy) => (
              <input
                className="text-input"
                inputMode="numeric"
                value={fields?.daysKept ?? ''}
                disabled={!fields}
                aria-describedby={describedBy}
                onChange={(event) => fields && setEdited({ ...fields, daysKept: event.target.value })}
              />
            )}
          </Field>
        </div>
        <section className="worktree-settings-dialog__disk" aria-label="Disk use">
          <p>
            {count}
            {disk.usage && `, ${formatBytes(disk.usage.bytes)} on disk`}
            {disk.error && ` (could not measure: ${disk.error})`}{' '}
            <button type="button" className="button button--ghost button--row" onClick={onMeasure}>
              Measure again
            </button>
          </p>
          <p>
            {checkpoints.usage && `${countOf(checkpoints.usage.checkpoints, 'checkpoint')}, ${formatBytes(checkpoints.usage.bytes)} that no branch holds`}
            {checkpoints.error && `Checkpoints: could not measure (${checkpoints.error})`}
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
