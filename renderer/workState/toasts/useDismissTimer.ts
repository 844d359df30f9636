import { useEffect, useRef } from 'react';

/** Calls `onExpire` after `ms` of not being paused; pausing (hover, focus) keeps the time left. */
export function useDismissTimer(ms: number, paused: boolean, onExpire: () => void): void {
  const remaining = useRef(ms);
  const expire = useRef(onExpire);
  useEffect(() => {
    expire.current = onExpire;
  });

  useEffect(() => {
    if (paused) return;
    const startedAt = Date.now();
    const timer = setTimeout(() => expire.current(), remaining.current);
    return () => {
      clearTimeout(timer);
      remaining.current -= Date.now() - startedAt;
    };
  }, [paused]);
}
