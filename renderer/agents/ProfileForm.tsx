import { useId, useState, type FormEvent, type ReactNode } from 'react';
import { AGENT_INTEGRATIONS, WAKE_STYLES } from '../../shared/entities';
import { errorMessage } from '../store/errorMessage';
import { useDroverActions } from '../store/StoreContext';
import { profileFromDraft, type DraftProblems, type ProfileDraft } from './profileDraft';
import { FormError } from '../components/FormError';

const INTEGRATION_LABELS: Readonly<Record<ProfileDraft['integration'], string>> = {
  'claude-hooks': 'Claude Code hooks',
  'codex-notify': 'Codex notify',
  none: 'None (screen patterns only)',
};

const WAKE_STYLE_LABELS: Readonly<Record<ProfileDraft['wakeAs'], string>> = {
  prompt: 'As a prompt (agent CLIs)',
  'shell-note': 'As a shell note (shown, never run)',
};

interface ProfileFormProps {
  initial: ProfileDraft;
  /** A new profile picks its id; a saved one keeps it. */
  isNew: boolean;
  onDone(): void;
}

/** Edits one custom profile: how to launch the agent CLI and how to read its state from the screen. */
export function ProfileForm({ initial, isNew, onDone }: ProfileFormProps) {
  const { saveAgentProfile } = useDroverActions();
  const [draft, setDraft] = useState(initial);
  const [problems, setProblems] = useState<DraftProblems>({});
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  const change = (field: keyof ProfileDraft) => (value: string) => setDraft((current) => ({ ...current, [field]: value }));

  async function submit(event: FormEvent<HTMLFormElement>): Promise<void> {
    event.preventDefault();
    const result = profileFromDraft(draft);
    if ('problems' in result) {
      setProblems(result.problems);
      return;
    }
    setProblems({});
    setSaving(true);
    setError(null);
    try {
      await saveAgentProfile(result.profile);
      onDone();
    } catch (failure) {
      setError(errorMessage(failure));
      setSaving(false);
    }
  }

  const text = (field: keyof ProfileDraft, label: string, hint?: string, mono = true) => (
    <DraftField label={label} hint={hint} problem={problems[field]}>
      {(describedBy) => (
        <input
          className={`text-input ${mono ? 'text-input--mono' : ''}`}
          value={draft[field]}
          readOnly={field === 'id' && !isNew}
          aria-invalid={problems[field] !== undefined}
          aria-describedby={describedBy}
          onChange={(event) => change(field)(event.target.value)}
        />
      )}
    </DraftField>
  );
  const lines = (field: 'args' | 'env', label: string, hint: string) => (
    <DraftField label={label} hint={hint} problem={problems[field]}>
      {(describedBy) => (
        <textarea
          className="text-input text-input--mono text-area"
          rows={3}
          value={draft[field]}
          aria-invalid={problems[field] !== undefined}
          aria-describedby={describedBy}
          onChange={(event) => change(field)(event.target.value)}
        />
      )}
    </DraftField>
  );

  return (
    <form className="profile-form" noValidate onSubmit={(event) => void submit(event)}>
      <div className="profile-form__columns">
        <fieldset className="profile-form__group">
          <legend>Launch</legend>
          {text('id', 'Id', 'Lowercase letters, digits and dashes')}
          {text('name', 'Name', undefined, false)}
          {text('command', 'Command', 'A program on PATH, or an absolute path')}
          {lines('args', 'Arguments', 'One per line')}
          {lines('env', 'Environment', 'One NAME=value per line')}
        </fieldset>
        <fieldset className="profile-form__group">
          <legend>State detection</legend>
          {text('promptPattern', 'Prompt pattern', 'Regular expression: the agent waits for a prompt')}
          {text('busyPattern', 'Busy pattern', 'The agent is working')}
          {text('needsInputPattern', 'Needs-input pattern', 'The agent asks you something')}
          {text('usageLimitPattern', 'Usage-limit pattern', 'The account hit its usage limit')}
          {text('quietMs', 'Quiet period (ms)', 'Output must pause this long before the screen is read')}
          <DraftField label="Integration" hint="The agent's own hooks beat screen patterns" problem={problems.integration}>
            {(describedBy) => (
              <select
                className="select select--field"
                value={draft.integration}
                aria-describedby={describedBy}
                onChange={(event) => change('integration')(event.target.value)}
              >
                {AGENT_INTEGRATIONS.map((integration) => (
                  <option key={integration} value={integration}>
                    {INTEGRATION_LABELS[integration]}
                  </option>
                ))}
              </select>
            )}
          </DraftField>
          <DraftField label="Wake" hint="How Drover types inbox messages into this agent" problem={problems.wakeAs}>
            {(describedBy) => (
              <select
                className="select select--field"
                value={draft.wakeAs}
                aria-describedby={describedBy}
                onChange={(event) => change('wakeAs')(event.target.value)}
              >
                {WAKE_STYLES.map((style) => (
                  <option key={style} value={style}>
                    {WAKE_STYLE_LABELS[style]}
                  </option>
                ))}
              </select>
            )}
          </DraftField>
        </fieldset>
      </div>
      <FormError message={error} />
      <div className="dialog__actions">
        <button type="button" className="button" onClick={onDone}>
          Cancel
        </button>
        <button type="submit" className="button button--primary" disabled={saving}>
          Save profile
        </button>
      </div>
    </form>
  );
}

function DraftField({
  label,
  hint,
  problem,
  children,
}: {
  label: string;
  hint?: string;
  problem?: string;
  children(describedBy: string | undefined): ReactNode;
}) {
  const noteId = useId();
  const note = problem ?? hint;
  return (
    <label className="field">
      <span className="field-label">{label}</span>
      {children(note ? noteId : undefined)}
      {note && (
        <span id={noteId} className={problem ? 'field-error' : 'field-hint'}>
          {note}
        </span>
      )}
    </label>
  );
}
