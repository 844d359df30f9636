import { useEffect, useRef } from 'react';

/**
 * Listens to every key press on the window while the component is mounted; `onKeyDown` may change
 * between renders without re-subscribing. `capture` listens before anything else on the page.
 */
export function useWindowKeyDown(onKeyDown: (event: KeyboardEvent) => void, capture = false): void {
  const handler = useRef(onKeyDown);
  useEffect(() => {
    handler.current = onKeyDown;
  });

  useEffect(() => {
    const listener = (event: KeyboardEvent) => handler.current(event);
    window.addEventListener('keydown', listener, { capture });
    return () => window.removeEventListener('keydown', listener, { capture });
  }, [capture]);
}
