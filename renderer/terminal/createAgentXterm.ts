import { FitAddon } from '@xterm/addon-fit';
import { SearchAddon } from '@xterm/addon-search';
import { SerializeAddon } from '@xterm/addon-serialize';
import { WebLinksAddon } from '@xterm/addon-web-links';
import { WebglAddon } from '@xterm/addon-webgl';
import { Terminal, type IDisposable } from '@xterm/xterm';
import '@xterm/xterm/css/xterm.css';
import { readTerminalSizeNote, TERMINAL_SIZE_OSC } from '../../shared/terminalSizeNote';
import { ShownThemeAddon, TERMINAL_FONT } from './terminalTheme';

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
    // As much as the host keeps at most (the terminalScrollbackLines setting), so a snapshot fits.
    scrollback: 10_000,
    cursorStyle: 'bar',
    cursorInactiveStyle: 'outline',
    allowProposedApi: true,
  });
  const addons = { fit: new FitAddon(), search: new SearchAddon(), serialize: new SerializeAddon() };
  terminal.loadAddon(addons.fit);
  terminal.loadAddon(addons.search);
  terminal.loadAddon(addons.serialize);
  terminal.loadAddon(new WebLinksAddon());
  terminal.loadAddon(new ShownThemeAddon());
  terminal.open(host);
  drawWithWebglWherePossible(terminal, host);
  return { terminal, ...addons };
}

/** Where set to `webgl` or `dom`, picks the terminal renderer (to compare them; see the README). */
const RENDERER_OVERRIDE_KEY = 'drover.terminalRenderer';
const SOFTWARE_RASTERIZER = /swiftshader|llvmpipe|softpipe|software/i;

type Webgl2Support = 'hardware' | 'software' | 'none';
let probedWebgl2Support: Webgl2Support | undefined;

/**
 * 'hardware' WebGL 2, 'software' (rasterized on the CPU, as with --disable-gpu), or 'none'. Probed
 * once per page: a probe makes and loses a WebGL context, about 17 ms here for each terminal made.
 */
function webgl2Support(): Webgl2Support {
  probedWebgl2Support ??= probeWebgl2Support();
  return probedWebgl2Support;
}

function probeWebgl2Support(): Webgl2Support {
  try {
    const gl = document.createElement('canvas').getContext('webgl2');
    if (!gl) return 'none';
    const info = gl.getExtension('WEBGL_debug_renderer_info');
    const renderer = String(gl.getParameter(info ? info.UNMASKED_RENDERER_WEBGL : gl.RENDERER));
    gl.getExtension('WEBGL_lose_context')?.loseContext();
    return SOFTWARE_RASTERIZER.test(renderer) ? 'software' : 'hardware';
  } catch {
    return 'none';
  }
}

function rendererOverride(): string | null {
  try {
    return window.localStorage.getItem(RENDERER_OVERRIDE_KEY);
  } catch {
    return null;
  }
}

/**
 * Draws with xterm's WebGL renderer where the browser has WebGL 2 on a GPU, and falls back to the
 * DOM renderer when it has none, when its WebGL is rasterized on the CPU (that competes with the
 * page for the same cores), when the addon fails to start, or when the GPU drops the context
 * later. `data-renderer` on the pane's box says which one draws.
 */
function drawWithWebglWherePossible(terminal: Terminal, host: HTMLElement): void {
  host.dataset.renderer = 'dom';
  const override = rendererOverride();
  if (override === 'dom') return;
  const support = webgl2Support();
  if (support === 'none' || (support === 'software' && override !== 'webgl')) return;
  try {
    const webgl = new WebglAddon();
    webgl.onContextLoss(() => {
      webgl.dispose();
      host.dataset.renderer = 'dom';
    });
    terminal.loadAddon(webgl);
    host.dataset.renderer = 'webgl';
  } catch (error) {
    console.warn('Drover: the WebGL terminal renderer could not start; drawing with the DOM renderer', error);
  }
}

/** Whether the terminal has a box: a hidden pane (another one is maximised) has none to fit. */
export function isVisible({ terminal }: AgentXterm): boolean {
  const element = terminal.element?.parentElement;
  return Boolean(element && element.clientWidth > 0 && element.clientHeight > 0);
}

/** The size that fills the terminal's box, when it has one: what this page would give the PTY. */
export function paneSize(xterm: AgentXterm): { cols: number; rows: number } | null {
  if (!isVisible(xterm)) return null;
  const proposed = xterm.fit.proposeDimensions();
  if (!proposed || !Number.isFinite(proposed.cols) || !Number.isFinite(proposed.rows)) return null;
  return { cols: proposed.cols, rows: proposed.rows };
}

/**
 * The terminal takes the PTY's size wherever the stream says it changed (see terminalSizeNote):
 * several pages may show one PTY, and one whose box is another size shows it clipped (its box
 * scrolls) rather than reflowing what the program drew for another width.
 */
export function followPtySize({ terminal }: AgentXterm): IDisposable {
  return terminal.parser.registerOscHandler(TERMINAL_SIZE_OSC, (payload) => {
    const size = readTerminalSizeNote(payload);
    if (size && (size.cols !== terminal.cols || size.rows !== terminal.rows)) terminal.resize(size.cols, size.rows);
    return true;
  });
}
