import { useSyncExternalStore } from 'react';

/** Phone-sized windows (styles.css switches at the same width): one pane at a time, panels as sheets. */
export const PHONE_LAYOUT_QUERY = '(max-width: 640px)';

function query(): MediaQueryList | null {
  return typeof window === 'undefined' || !window.matchMedia ? null : window.matchMedia(PHONE_LAYOUT_QUERY);
}

export function isPhoneLayout(): boolean {
  return query()?.matches ?? false;
}

function subscribe(onChange: () => void): () => void {
  const list = query();
  list?.addEventListener('change', onChange);
  return () => list?.removeEventListener('change', onChange);
}

export function usePhoneLayout(): boolean {
  return useSyncExternalStore(subscribe, isPhoneLayout);
}
