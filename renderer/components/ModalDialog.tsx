import { useId, type ReactNode, type RefObject } from 'react';
import { useModal } from './useModal';

interface ModalDialogProps {
  title: ReactNode;
  /** Extra controls beside the title (the close button is always there). */
  headerExtras?: ReactNode;
  className?: string;
  children: ReactNode;
  onClose(): void;
  /** The caller's own `useModal()`, when it closes the dialog itself (its `onClose` then runs). */
  dialogRef?: RefObject<HTMLDialogElement | null>;
}

/** A native modal <dialog>: it traps focus and closes on Escape; the caller decides where focus goes after. */
export function ModalDialog({ title, headerExtras, className, children, onClose, dialogRef: callerRef }: ModalDialogProps) {
  const ownRef = useModal();
  const dialogRef = callerRef ?? ownRef;
  const titleId = useId();

  return (
    <dialog
      ref={dialogRef}
      aria-labelledby={titleId}
      className={`dialog ${className ?? ''}`}
      // React passes a dialog opened over this one (a merge, a question) its close too: only this one's own counts.
      onClose={(event) => event.target === event.currentTarget && onClose()}
    >
      <header className="dialog__header">
        <h2 id={titleId} className="dialog__title">
          {title}
        </h2>
        {headerExtras}
        <button type="button" className="button button--ghost" data-autofocus-fallback onClick={() => dialogRef.current?.close()}>
          Close
        </button>
      </header>
      {children}
    </dialog>
  );
}
