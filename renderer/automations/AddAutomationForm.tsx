import { useId, useState, type FormEvent, type ReactNode } from 'react';
import { Field } from '../components/Field';
import { FormError } from '../components/FormError';
import { usePendingAction } from '../components/usePendingAction';
import { useProfiles } from '../store/hooks';
import { useBridge } from '../store/StoreContext';
import { ACTION_CHOICES, EMPTY_DRAFT, newAutomationOf, TRIGGER_CHOICES, triggerWordLabel, type ActionChoice, type AutomationDraft, type TriggerChoice } from './automationDraft';

interface AddAutomationFormProps {
  projectId: string;
  onAdded(): void;
}

interface ChoiceProps {
  label: string;
  value: string;
  choices: readonly { value: string; label: string }[];
  onChange(value: string): void;
}

/** A labelled <select>, its label beside it rather than around it so that its name is the label alone. */
function Choice({ label, value, choices, onChange }: ChoiceProps) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id} className="field-label">
        {label}
      </label>
      <select id={id} className="text-input" value={value} onChange={(event) => onChange(event.target.value)}>
        {choices.map((choice) => (
          <option key={choice.value} value={choice.value}>
            {choice.label}
          </option>
        ))}
      </select>
    </div>
  );
}

/** The person's time zone, where a schedule's hours are read. */
const personTimeZone = (): string => Intl.DateTimeFormat().resolvedOptions().timeZone;

/** A new automation: its name, one trigger, one action. The host checks it (a cron field, a template field, a profile) and its refusal is the form's error. */
export function AddAutomationForm({ projectId, onAdded }: AddAutomationFormProps) {
  const bridge = useBridge();
  const profiles = useProfiles().list;
  const [draft, setDraft] = useState<AutomationDraft>(EMPTY_DRAFT);
  const adding = usePendingAction({ clearErrorOnStart: true });
  const wordLabel = triggerWordLabel(draft.trigger);
  const profileId = draft.profileId || (profiles[0]?.id ?? '');

  const text = (field: keyof AutomationDraft, label: string, options: { placeholder?: string; hint?: string; multiline?: boolean } = {}): ReactNode => (
    <Field label={label} note={options.hint ? { text: options.hint, kind: 'hint' } : null}>
      {(describedBy) =>
        options.multiline ? (
          <textarea className="text-input" rows={3} value={draft[field]} placeholder={options.placeholder} aria-describedby={describedBy} onChange={(event) => setDraft({ ...draft, [field]: event.target.value })} />
        ) : (
          <input className="text-input" value={draft[field]} placeholder={options.placeholder} aria-describedby={describedBy} onChange={(event) => setDraft({ ...draft, [field]: event.target.value })} />
        )
      }
    </Field>
  );

  async function submit(event: FormEvent<HTMLFormElement>): Promise<void> {
    event.preventDefault();
    await adding.run(async () => {
      await bridge.call('addAutomation', newAutomationOf(projectId, { ...draft, profileId }, personTimeZone()));
      setDraft(EMPTY_DRAFT);
      onAdded();
    }, 'Could not add the automation: ');
  }

  return (
    <form className="form-grid automations-dialog__add" aria-label="Add an automation" noValidate onSubmit={(event) => void submit(event)}>
      <h3 className="automations-dialog__name">Add an automation</h3>
      {text('name', 'Name', { placeholder: 'e.g. nightly-deps' })}
      <Choice label="Trigger" value={draft.trigger} choices={TRIGGER_CHOICES} onChange={(trigger) => setDraft({ ...draft, trigger: trigger as TriggerChoice })} />
      {draft.trigger === 'schedule' &&
        text('cron', 'Cron expression', { placeholder: 'e.g. 0 2 * * 1-5', hint: `Minute, hour, day of month, month, day of week (or @daily, @hourly…), in ${personTimeZone()}.` })}
      {wordLabel && text('word', wordLabel.label, wordLabel.optional ? { hint: 'Empty: any agent.' } : {})}
      <Choice label="Action" value={draft.action} choices={ACTION_CHOICES} onChange={(action) => setDraft({ ...draft, action: action as ActionChoice })} />
      {draft.action === 'task' && text('command', 'Command', { placeholder: 'e.g. npm update && npm test', hint: 'Runs in the project folder; the event’s fields ({task.label}, {issue.title}…) are filled in.' })}
      {draft.action === 'message' && (
        <>
          {text('agent', 'To agent', { placeholder: 'the agent’s name' })}
          {text('text', 'Message', { multiline: true })}
        </>
      )}
      {draft.action === 'agent' && (
        <>
          <Choice
            label="Profile"
            value={profileId}
            choices={profiles.map((profile) => ({ value: profile.id, label: profile.name }))}
            onChange={(chosen) => setDraft({ ...draft, profileId: chosen })}
          />
          {text('prompt', 'First prompt', { multiline: true, hint: 'A template: {issue.title}, {check.summary}, {task.tail}… are filled in from the event.' })}
          {text('base', 'Base branch', { hint: 'Empty: the project’s current branch.' })}
        </>
      )}
      <FormError message={adding.error} />
      <div className="dialog__actions">
        <button type="submit" className="button button--primary" disabled={adding.pending}>
          Add automation
        </button>
      </div>
    </form>
  );
}
