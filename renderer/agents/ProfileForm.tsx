import { useState, type FormEvent } from 'react';
import { AGENT_INTEGRATIONS, WAKE_STYLES } from '../../shared/entities/profiles';
import { Field, type FieldNote } from '../components/Field';
import { FormActions } from '../components/FormActions';
import { FormError } from '../components/FormError';
import { usePendingAction } from '../components/usePendingAction';
import { useDroverActions } from '../store/StoreContext';
import { profileFromDraft, type DraftProblems, type ProfileDraft } from './profileDraft';

const INTEGRATION_LABELS: Readonly<Record<ProfileDraft['integration'], string>> = {
  claude: 'Claude Code hooks',
  codex: 'Codex hooks and status',
  gemini: 'Gemini CLI hooks',
  copilot: 'Copilot CLI MCP server',
  opencode: 'OpenCode plugin events',
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
  const save = usePendingAction({ clearErrorOnStart: true });

  const change = (field: keyof ProfileDraft) => (value: string) => setDraft((current) => ({ ...current, [field]: value }));

  async function submit(event: FormEvent<HTMLFormElement>): Promise<void> {
    event.preventDefault();
    const result = profileFromDraft(draft);
    if ('problems' in result) {
      setProblems(result.problems);
      return;
    }
    setProblems({});
    await save.run(async () => {
      await saveAgentProfile(result.profile);
      onDone();
    });
  }

  /** What is wrong with the field, else what it is for. */
  const noteFor = (field: keyof ProfileDraft, hint?: string): FieldNote | null => {
    const problem = problems[field];
    if (problem) return { text: problem, kind: 'error' };
    return hint ? { text: hint, kind: 'hint' } : null;
  };

  const text = (field: keyof ProfileDraft, label: string, hint?: string, mono = true) => (
    <Field label={label} note={noteFor(field, hint)}>
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
    </Field>
  );
  const lines = (field: 'args' | 'env', label: string, hint: string) => (
    <Field label={label} note={noteFor(field, hint)}>
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
    </Field>
  );

  const choice = <F extends 'integration' | 'wakeAs'>(
    field: F,
    label: string,
    hint: string,
    options: readonly ProfileDraft[F][],
    optionLabels: Readonly<Record<ProfileDraft[F], string>>,
  ) => (
    <Field label={label} note={noteFor(field, hint)}>
      {(describedBy) => (
        <select className="select select--field" value={draft[field]} aria-describedby={describedBy} onChange={(event) => change(field)(event.target.value)}>
          {options.map((option) => (
            <option key={option} value={option}>
              {optionLabels[option]}
            </option>
          ))}
        </select>
      )}
    </Field>
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
          {choice('integration', 'Integration', "The agent's own hooks beat screen patterns", AGENT_INTEGRATIONS, INTEGRATION_LABELS)}
          {choice('wakeAs', 'Wake', 'How Drover types inbox messages into this agent', WAKE_STYLES, WAKE_STYLE_LABELS)}
        </fieldset>
      </div>
      <FormError message={save.error} />
      <FormActions submitLabel="Save profile" pending={save.pending} onCancel={onDone} />
    </form>
  );
}
