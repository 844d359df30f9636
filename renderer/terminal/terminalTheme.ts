import type { ITheme } from '@xterm/xterm';

/** One palette for every xterm in the app, matched to styles.css. */
export const TERMINAL_THEME: ITheme = {
  background: '#0f1013',
  foreground: '#d9dce3',
  cursor: '#d9dce3',
  cursorAccent: '#0f1013',
  selectionBackground: '#34507f',
  black: '#1b1d22',
  brightBlack: '#6b717d',
};

export const TERMINAL_FONT = { fontSize: 12, lineHeight: 1.2 } as const;

/** How search matches show in a terminal (the addon takes #RRGGBB colours). */
export const SEARCH_DECORATIONS = {
  matchBackground: '#3b3f4a',
  matchOverviewRuler: '#8a919e',
  activeMatchBackground: '#6b5a1e',
  activeMatchColorOverviewRuler: '#e0b84a',
} as const;
