import type { ITerminalAddon, ITheme, Terminal } from '@xterm/xterm';
import { onShownThemeChange, shownTheme, type ShownTheme } from '../components/shownTheme';

/** One palette per theme for every xterm in the app, matched to styles.css. */
const PALETTES: Readonly<Record<ShownTheme, ITheme>> = {
  dark: {
    background: '#0f1013',
    foreground: '#d9dce3',
    cursor: '#d9dce3',
    cursorAccent: '#0f1013',
    selectionBackground: '#34507f',
    black: '#1b1d22',
    brightBlack: '#6b717d',
  },
  // xterm's default ANSI colours are made for a dark page (yellow and white vanish on white): these read at
  // 4.5:1 or more on white; white and bright white, the emphasis of a dark palette, are greys here.
  light: {
    background: '#ffffff',
    foreground: '#1d2026',
    cursor: '#1d2026',
    cursorAccent: '#ffffff',
    selectionBackground: '#b9cdf5',
    selectionInactiveBackground: '#dbe3f2',
    black: '#1d2026',
    red: '#c4281f',
    green: '#17803d',
    yellow: '#8a6100',
    blue: '#1f56c8',
    magenta: '#a3279b',
    cyan: '#0b7a8c',
    white: '#5f6673',
    brightBlack: '#6b717d',
    brightRed: '#d13a2f',
    brightGreen: '#1a8541',
    brightYellow: '#9a6d00',
    brightBlue: '#2f66d6',
    brightMagenta: '#b43aab',
    brightCyan: '#0e7f91',
    brightWhite: '#3d434f',
  },
};

export function terminalTheme(theme: ShownTheme): ITheme {
  return PALETTES[theme];
}

/** Read-only views have no cursor to show: it takes the background's colour. */
export function readOnlyTerminalTheme(theme: ShownTheme): ITheme {
  const palette = PALETTES[theme];
  return { ...palette, cursor: palette.background };
}

/**
 * Paints the terminal in the page's theme, and again whenever the theme changes, without
 * reattaching it; it stops when the terminal is disposed (xterm disposes its addons).
 */
export class ShownThemeAddon implements ITerminalAddon {
  private stopFollowing: () => void = () => undefined;

  constructor(private readonly palette: (theme: ShownTheme) => ITheme = terminalTheme) {}

  activate(terminal: Terminal): void {
    const paint = () => {
      terminal.options.theme = this.palette(shownTheme());
    };
    paint();
    this.stopFollowing = onShownThemeChange(paint);
  }

  dispose(): void {
    this.stopFollowing();
  }
}

export const TERMINAL_FONT = { fontSize: 12, lineHeight: 1.2 } as const;

/** How search matches show in a terminal (the addon takes #RRGGBB colours). */
const SEARCH_DECORATIONS = {
  dark: {
    matchBackground: '#3b3f4a',
    matchOverviewRuler: '#8a919e',
    activeMatchBackground: '#6b5a1e',
    activeMatchColorOverviewRuler: '#e0b84a',
  },
  light: {
    matchBackground: '#dfe3ea',
    matchOverviewRuler: '#8a919e',
    activeMatchBackground: '#f5dc8c',
    activeMatchColorOverviewRuler: '#b58600',
  },
} as const;

export function searchDecorations(theme: ShownTheme): (typeof SEARCH_DECORATIONS)[ShownTheme] {
  return SEARCH_DECORATIONS[theme];
}
