import { useId, useState, type FormEvent, type KeyboardEvent } from 'react';
import type { Agent } from '../../shared/entities/agents';
import { usePendingAction } from '../components/usePendingAction';
import { useDroverActions } from '../store/StoreContext';
import { FormError } from '../components/FormError';

/** A person's note to the agent; it waits in the inbox like any message until a wake delivers it. */
export function NoteForm({ agent }: { agent: Agent }) {
  const { sendNote } = useDroverActions();
  const [body, setBody] = useState('');
  const action = usePendingAction();
  const inputId = useId();

  async function send(): Promise<void> {
    const text = body.trim();
    if (!text) return;
    if (await action.run(() => sendNote(agent.projectId, agent.id, text), 'Could not send the note: ')) setBody('');
  }

  function submitOnCtrlEnter(event: KeyboardEvent<HTMLTextAreaElement>): void {
    if (event.key !== 'Enter' || !(event.ctrlKey || event.metaKey)) return;
    event.preventDefault();
    void send();
  }

  return (
    <form
      className="note-form"
      onSubmit={(event: FormEvent<HTMLFormElement>) => {
        event.preventDefault();
        void send();
      }}
    >
      <label htmlFor={inputId} className="field-label note-form__label">
        Note to {agent.name}
      </label>
      <div className="note-form__row">
        <textarea
          id={inputId}
          className="text-input text-area note-form__input"
          rows={2}
          maxLength={100_000}
          placeholder={`Drover types it into ${agent.name}'s terminal once it is ready (Ctrl+Enter sends)`}
          value={body}
          onChange={(event) => setBody(event.target.value)}
          onKeyDown={submitOnCtrlEnter}
        />
        <button type="submit" className="button button--primary" disabled={action.pending || body.trim().length === 0}>
          Send note
        </button>
      </div>
      <FormError message={action.error} />
    </form>
  );
}
