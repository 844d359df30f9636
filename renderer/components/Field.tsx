import { useId, type ReactNode } from 'react';

export interface FieldNote {
  text: string;
  /** A hint explains the field; an error says what is wrong with it; a warning, what will not work. */
  kind: 'hint' | 'error' | 'warning';
}

const NOTE_CLASS: Readonly<Record<FieldNote['kind'], string>> = { hint: 'field-hint', error: 'field-error', warning: 'field-warning' };

interface FieldProps {
  label: string;
  note?: FieldNote | null;
  /** Renders the control; `describedBy` names the note, when there is one. */
  children(describedBy: string | undefined): ReactNode;
}

/** A labelled form control with an optional note under it that the control is described by. */
export function Field({ label, note, children }: FieldProps) {
  const noteId = useId();
  return (
    <label className="field">
      <span className="field-label">{label}</span>
      {children(note ? noteId : undefined)}
      {note && (
        <span id={noteId} className={NOTE_CLASS[note.kind]}>
          {note.text}
        </span>
      )}
    </label>
  );
}
