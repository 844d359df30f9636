import { useEffect, useRef } from 'react';

/**
 * Opens a native <dialog> as a modal when it mounts: it then traps focus and closes on Escape.
 * Pass the ref to the <dialog>; calling `close()` on it fires the dialog's `onClose`. The element
 * marked `data-autofocus` gets the focus (React's `autoFocus` runs while the dialog is still
 * closed, so the browser would focus the first control, often the Close button).
 */
export function useModal() {
  const dialogRef = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = dialogRef.current;
    if (!dialog || dialog.open) return;
    dialog.showModal();
    dialog.querySelector<HTMLElement>('[data-autofocus]')?.focus();
  }, []);
  return dialogRef;
}
