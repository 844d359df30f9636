interface FormActionsProps {
  submitLabel: string;
  /** While the form's request runs. */
  pending: boolean;
  onCancel(): void;
}

/** A dialog form's Cancel and submit buttons. */
export function FormActions({ submitLabel, pending, onCancel }: FormActionsProps) {
  return (
    <div className="dialog__actions">
      <button type="button" className="button" onClick={onCancel}>
        Cancel
      </button>
      <button type="submit" className="button button--primary" disabled={pending}>
        {submitLabel}
      </button>
    </div>
  );
}
