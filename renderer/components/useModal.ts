import { useEffect, useRef } from 'react';

/**
 * Opens a native <dialog> as a modal when it mounts: it then traps focus and closes on Escape.
 * Pass the ref to the <dialog>; calling `close()` on it fires the dialog's `onClose`.
 */
export function useModal() {
  const dialogRef = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = dialogRef.current;
    if (dialog && !dialog.open) dialog.showModal();
  }, []);
  return dialogRef;
}
