import { useSyncExternalStore } from 'react';

const TICK_MS = 1000;
const listeners = new Set<() => void>();
let now = Date.now();
let timer: ReturnType<typeof setInterval> | undefined;

/** One shared clock, so every running row ticks on the same beat and idle pages run no timer. */
function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  if (!timer) {
    now = Date.now();
    timer = setInterval(() => {
      now = Date.now();
      listeners.forEach((notify) => notify());
    }, TICK_MS);
  }
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0) {
      clearInterval(timer);
      timer = undefined;
    }
  };
}

function subscribeNever(): () => void {
  return () => undefined;
}

function readNow(): number {
  return now;
}

/** The current time, re-read every second while `ticking` (only running tasks need a clock). */
export function useNow(ticking: boolean): number {
  return useSyncExternalStore(ticking ? subscribe : subscribeNever, readNow);
}
