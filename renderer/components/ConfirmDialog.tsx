import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { errorMessage } from '../store/errorMessage';
import { FormError } from './FormError';

interface ConfirmDialogProps {
  title: string;
  children: ReactNode;
  confirmLabel: string;
  /** The safe answer, focused first. */
  dismissLabel?: string;
  onConfirm(): Promise<void>;
  onClose(): void;
}

/**
 * A modal question with a destructive answer. The native <dialog> traps focus and closes on
 * Escape; the safe choice has focus first so a stray Enter does no harm.
 */
export function ConfirmDialog({ title, children, confirmLabel, dismissLabel = 'Cancel', onConfirm, onClose }: ConfirmDialogProps) {
  const dialogRef = useRef<HTMLDialogElement>(null);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const titleId = useId();
  const bodyId = useId();

  useEffect(() => {
    const dialog = dialogRef.current;
    if (dialog && !dialog.open) dialog.showModal();
  }, []);

  async function confirm(): Promise<void> {
    if (pending) return;
    setPending(true);
    setError(null);
    try {
      await onConfirm();
      dialogRef.current?.close();
    } catch (failure) {
      setError(errorMessage(failure));
      setPending(false);
    }
  }

  return (
    <dialog
      ref={dialogRef}
      role="alertdialog"
      aria-labelledby={titleId}
      aria-describedby={bodyId}
      className="dialog"
      onClose={onClose}
    >
      <h2 id={titleId} className="dialog__title">
        {title}
      </h2>
      <div id={bodyId} className="dialog__body">
        {children}
      </div>
      <FormError message={error} />
      <div className="dialog__actions">
        <button type="button" className="button" autoFocus onClick={() => dialogRef.current?.close()}>
          {dismissLabel}
        </button>
        <button type="button" className="button button--danger" onClick={() => void confirm()}>
          {confirmLabel}
        </button>
      </div>
    </dialog>
  );
}
