import { startTransition, useEffect, useRef, useState } from 'react';

/**
 * Runs `callback` in the task after the next frame, so after the browser painted what changed. A
 * hidden page draws no frames (a minimised window, a background tab): there it runs at once, so
 * what follows the paint, the taskbar's badge count among it, still follows the state.
 */
export function afterNextPaint(callback: () => void): void {
  if (document.visibilityState === 'hidden') setTimeout(callback, 0);
  else requestAnimationFrame(() => setTimeout(callback, 0));
}

/** False until the caller's first render has been painted. */
export function usePaintedOnce(): boolean {
  const [painted, setPainted] = useState(false);
  useEffect(() => afterNextPaint(() => startTransition(() => setPainted(true))), []);
  return painted;
}

/**
 * `value` as it was at the last paint: a change reaches the caller in the task after the next
 * frame, once the browser has painted what the change showed elsewhere. For what reads every task
 * (the attention queue, each agent's share): useDeferredValue renders it before that frame, so a
 * 10,000-task snapshot's first paint waited for it. Changes that come faster than frames are taken
 * together (the latest wins), so a stream of events never holds the value back for good.
 */
export function useValueAfterPaint<T>(value: T): T {
  const [painted, setPainted] = useState(value);
  const latest = useRef(value);
  const scheduled = useRef(false);
  useEffect(() => {
    latest.current = value;
    if (scheduled.current) return;
    scheduled.current = true;
    afterNextPaint(() => {
      scheduled.current = false;
      startTransition(() => setPainted(latest.current));
    });
  }, [value]);
  return painted;
}
