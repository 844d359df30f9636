import { useEffect, useRef } from 'react';

/**
 * Opens a native <dialog> as a modal when it mounts: it then traps focus and closes on Escape.
 * Pass the ref to the <dialog>; calling `close()` on it fires the dialog's `onClose`. The element
 * marked `data-autofocus` gets the focus (React's `autoFocus` runs while the dialog is still
 * closed, so the browser would focus the first control); failing that, the one marked
 * `data-autofocus-fallback`: a dialog's Close, so that an action in its header (Retry, Mark all
 * read) is never the first control and a stray Enter does nothing it cannot undo.
 */
export function useModal() {
  const dialogRef = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = dialogRef.current;
    if (!dialog || dialog.open) return;
    dialog.showModal();
    (dialog.querySelector<HTMLElement>('[data-autofocus]') ?? dialog.querySelector<HTMLElement>('[data-autofocus-fallback]'))?.focus();
  }, []);
  return dialogRef;
}
