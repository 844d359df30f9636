import { FitAddon } from '@xterm/addon-fit';
import { SearchAddon } from '@xterm/addon-search';
import { SerializeAddon } from '@xterm/addon-serialize';
import { WebLinksAddon } from '@xterm/addon-web-links';
import { Terminal } from '@xterm/xterm';
import '@xterm/xterm/css/xterm.css';
import { TERMINAL_FONT, TERMINAL_THEME } from './terminalTheme';

export interface AgentXterm {
  terminal: Terminal;
  fit: FitAddon;
  search: SearchAddon;
  serialize: SerializeAddon;
}

/** An interactive xterm with the addons an agent pane uses, opened inside `host`. */
export function createAgentXterm(host: HTMLElement): AgentXterm {
  const terminal = new Terminal({
    fontFamily: getComputedStyle(host).fontFamily,
    ...TERMINAL_FONT,
    scrollback: 10_000,
    cursorStyle: 'bar',
    cursorInactiveStyle: 'outline',
    allowProposedApi: true,
    theme: TERMINAL_THEME,
  });
  const addons = { fit: new FitAddon(), search: new SearchAddon(), serialize: new SerializeAddon() };
  terminal.loadAddon(addons.fit);
  terminal.loadAddon(addons.search);
  terminal.loadAddon(addons.serialize);
  terminal.loadAddon(new WebLinksAddon());
  terminal.open(host);
  return { terminal, ...addons };
}

/** Fits the terminal to its box; a hidden pane (another one is maximised) has no box to fit. */
export function fitIfVisible({ terminal, fit }: AgentXterm): void {
  const element = terminal.element?.parentElement;
  if (element && element.clientWidth > 0 && element.clientHeight > 0) fit.fit();
}
