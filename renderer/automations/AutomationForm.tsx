import { useEffect, useId, useRef, useState, type FormEvent, type ReactNode, type Ref } from 'react';
import type { Automation } from '../../shared/automations';
import { Field } from '../components/Field';
import { FormError } from '../components/FormError';
import { usePendingAction } from '../components/usePendingAction';
import { useProfiles } from '../store/hooks';
import { useBridge } from '../store/StoreContext';
import { ACTION_CHOICES, draftOf, EMPTY_DRAFT, newAutomationOf, ruleOf, TRIGGER_CHOICES, triggerWordLabel, type ActionChoice, type AutomationDraft, type TriggerChoice } from './automationDraft';

interface AutomationFormProps {
  projectId: string;
  /** The automation to edit; without it, the form adds a new one. */
  editing?: Automation;
  onSaved(): void;
  /** Edit only: leaves the rule as it was. */
  onCancel?(): void;
}

interface ChoiceProps {
  label: string;
  value: string;
  choices: readonly { value: string; label: string }[];
  onChange(value: string): void;
  selectRef?: Ref<HTMLSelectElement>;
}

/** A labelled <select>, its label beside it rather than around it so that its name is the label alone. */
function Choice({ label, value, choices, onChange, selectRef }: ChoiceProps) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id} className="field-label">
        {label}
      </label>
      <select ref={selectRef} id={id} className="text-input" value={value} onChange={(event) => onChange(event.target.value)}>
        {choices.map((choice) => (
          <option key={choice.value} value={choice.value}>
            {choice.label}
          </option>
        ))}
      </select>
    </div>
  );
}

/** The person's time zone, where a new schedule's hours are read. */
const personTimeZone = (): string => Intl.DateTimeFormat().resolvedOptions().timeZone;

/**
 * An automation's rule: one trigger, one action, its daily cap and catch-up window; a name too when
 * it is new. The host checks it (a cron field, a template field, a profile, an agent) and its refusal
 * is the form's error. Editing, the form starts filled in and keeps a schedule's time zone.
 */
export function AutomationForm({ projectId, editing, onSaved, onCancel }: AutomationFormProps) {
  const bridge = useBridge();
  const profiles = useProfiles().list;
  const [draft, setDraft] = useState<AutomationDraft>(() => (editing ? draftOf(editing) : EMPTY_DRAFT));
  const saving = usePendingAction({ clearErrorOnStart: true });
  const firstChoiceRef = useRef<HTMLSelectElement>(null);
  const wordLabel = triggerWordLabel(draft.trigger);
  const profileId = draft.profileId || (profiles[0]?.id ?? '');
  const timeZone = editing?.trigger.kind === 'schedule' ? editing.trigger.timeZone : personTimeZone();

  // Opened by Edit, the form takes the focus the button had.
  const editingId = editing?.id;
  useEffect(() => {
    if (editingId) firstChoiceRef.current?.focus();
  }, [editingId]);

  const text = (field: keyof AutomationDraft, label: string, options: { placeholder?: string; hint?: string; multiline?: boolean; numeric?: boolean } = {}): ReactNode => (
    <Field label={label} note={options.hint ? { text: options.hint, kind: 'hint' } : null}>
      {(describedBy) =>
        options.multiline ? (
          <textarea className="text-input" rows={3} value={draft[field]} placeholder={options.placeholder} aria-describedby={describedBy} onChange={(event) => setDraft({ ...draft, [field]: event.target.value })} />
        ) : (
          <input
            className="text-input"
            value={draft[field]}
            placeholder={options.placeholder}
            inputMode={options.numeric ? 'numeric' : undefined}
            aria-describedby={describedBy}
            onChange={(event) => setDraft({ ...draft, [field]: event.target.value })}
          />
        )
      }
    </Field>
  );

  async function submit(event: FormEvent<HTMLFormElement>): Promise<void> {
    event.preventDefault();
    const filled = { ...draft, profileId };
    if (editing) {
      await saving.run(async () => {
        await bridge.call('updateAutomation', { projectId, name: editing.name, ...ruleOf(filled, timeZone) });
        onSaved();
      }, `Could not save ${editing.name}: `);
      return;
    }
    await saving.run(async () => {
      await bridge.call('addAutomation', newAutomationOf(projectId, filled, timeZone));
      setDraft(EMPTY_DRAFT);
      onSaved();
    }, 'Could not add the automation: ');
  }

  const title = editing ? `Edit ${editing.name}` : 'Add an automation';
  return (
    <form className={editing ? 'form-grid automations-dialog__edit' : 'form-grid automations-dialog__add'} aria-label={title} noValidate onSubmit={(event) => void submit(event)}>
      <h3 className="automations-dialog__name">{title}</h3>
      {!editing && text('name', 'Name', { placeholder: 'e.g. nightly-deps' })}
      <Choice label="Trigger" value={draft.trigger} choices={TRIGGER_CHOICES} selectRef={firstChoiceRef} onChange={(trigger) => setDraft({ ...draft, trigger: trigger as TriggerChoice })} />
      {draft.trigger === 'schedule' &&
        text('cron', 'Cron expression', { placeholder: 'e.g. 0 2 * * 1-5', hint: `Minute, hour, day of month, month, day of week (or @daily, @hourly…), in ${timeZone}.` })}
      {wordLabel && text('word', wordLabel.label, wordLabel.optional ? { hint: 'Empty: any agent.' } : {})}
      <Choice label="Action" value={draft.action} choices={ACTION_CHOICES} onChange={(action) => setDraft({ ...draft, action: action as ActionChoice })} />
      {draft.action === 'task' && (
        <>
          {text('command', 'Command', { placeholder: 'e.g. npm update && npm test', hint: 'The event’s fields ({task.label}, {issue.title}…) are filled in.' })}
          {text('cwd', 'Folder', { placeholder: 'e.g. packages/web', hint: 'Empty: the project folder (or the owner’s worktree). A relative folder is taken from there.' })}
          {text('owner', 'Owner agent', { hint: 'Empty: no agent. The task’s result goes to its owner’s inbox.' })}
        </>
      )}
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
      <div className="automations-dialog__limits">
        {text('dailyCap', 'Daily cap', { numeric: true, hint: 'The most runs it starts in a day.' })}
        {draft.trigger === 'schedule' && text('catchUpMinutes', 'Catch-up window (minutes)', { numeric: true, hint: 'A run missed while the host was down runs once at its start if it is no later than this.' })}
      </div>
      <FormError message={saving.error} />
      <div className="dialog__actions">
        {editing && (
          <button type="button" className="button" onClick={onCancel}>
            Cancel
          </button>
        )}
        <button type="submit" className="button button--primary" disabled={saving.pending}>
          {editing ? 'Save' : 'Add automation'}
        </button>
      </div>
    </form>
  );
}
