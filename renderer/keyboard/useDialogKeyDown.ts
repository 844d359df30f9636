import type { RefObject } from 'react';
import { isTypingTarget } from './shortcuts';
import { useWindowKeyDown } from './useWindowKeyDown';

/**
 * A dialog's own keys: they work wherever focus is in the dialog that holds `insideRef` (its
 * header too), and not in a dialog opened over it nor while someone types into a field.
 */
export function useDialogKeyDown(insideRef: RefObject<Element | null>, onKeyDown: (event: KeyboardEvent) => void): void {
  useWindowKeyDown((event) => {
    const dialog = insideRef.current?.closest('dialog');
    const target = event.target instanceof Element ? event.target : null;
    if (!dialog || target?.closest('dialog') !== dialog || event.defaultPrevented || isTypingTarget(event.target)) return;
    onKeyDown(event);
  });
}
