import { useSyncExternalStore } from 'react';
import type { ThemeChoice } from '../../shared/appSettings';

/** The palette the page shows: the setting, with `system` resolved by the system's colour scheme. */
export type ShownTheme = 'dark' | 'light';

/**
 * The theme this browser showed last. The script in index.html reads it before the first paint,
 * so a light page does not flash dark while the host's setting is on its way.
 */
const LAST_SHOWN_KEY = 'drover.shownTheme';
const listeners = new Set<() => void>();

export function resolveTheme(choice: ThemeChoice, systemPrefersLight: boolean): ShownTheme {
  if (choice === 'system') return systemPrefersLight ? 'light' : 'dark';
  return choice;
}

/** What the page shows now: `data-theme` on the root element, which styles.css reads. */
export function shownTheme(): ShownTheme {
  return document.documentElement.dataset.theme === 'light' ? 'light' : 'dark';
}

/** Shows `theme` and tells whatever paints outside the stylesheet (terminals, the diff viewer). */
export function showTheme(theme: ShownTheme): void {
  try {
    window.localStorage.setItem(LAST_SHOWN_KEY, theme);
  } catch {
    // Storage can be disabled; only the next load's first paint may show the other theme.
  }
  if (document.documentElement.dataset.theme === theme) return;
  document.documentElement.dataset.theme = theme;
  listeners.forEach((listener) => listener());
}

export function onShownThemeChange(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useShownTheme(): ShownTheme {
  return useSyncExternalStore(onShownThemeChange, shownTheme);
}
