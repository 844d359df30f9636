import { useId, type ReactNode } from 'react';
import { FormError } from './FormError';
import { useModal } from './useModal';
import { usePendingAction } from './usePendingAction';

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
  const dialogRef = useModal();
  const confirming = usePendingAction({ clearErrorOnStart: true });
  const titleId = useId();
  const bodyId = useId();

  async function confirm(): Promise<void> {
    await confirming.run(async () => {
      await onConfirm();
      dialogRef.current?.close();
    });
  }

  return (
    <dialog ref={dialogRef} role="alertdialog" aria-labelledby={titleId} aria-describedby={bodyId} className="dialog" onClose={onClose}>
      <h2 id={titleId} className="dialog__title">
        {title}
      </h2>
      <div id={bodyId} className="dialog__body">
        {children}
      </div>
      <FormError message={confirming.error} />
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
