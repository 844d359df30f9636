import { FitAddon } from '@xterm/addon-fit';
import { Terminal } from '@xterm/xterm';
import '@xterm/xterm/css/xterm.css';
import { useEffect, useRef } from 'react';
import { TERMINAL_FONT, TERMINAL_THEME } from './terminalTheme';

/** How whoever feeds the view writes to it: replace the whole text (first load, earlier output), or append. */
export interface OutputSink {
  reset(text: string): void;
  append(text: string): void;
}

// Read-only: the cursor would only be noise.
const THEME = { ...TERMINAL_THEME, cursor: TERMINAL_THEME.background };

/** A read-only xterm that keeps the log's ANSI colours; hands its sink to the caller once ready. */
export function TerminalView({ onReady, label }: { onReady(sink: OutputSink): () => void; label: string }) {
  const hostRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const host = hostRef.current;
    if (!host) return;
    const terminal = new Terminal({
      disableStdin: true,
      convertEol: true,
      scrollback: 200_000,
      fontFamily: getComputedStyle(host).fontFamily,
      ...TERMINAL_FONT,
      cursorInactiveStyle: 'none',
      theme: THEME,
    });
    const fit = new FitAddon();
    terminal.loadAddon(fit);
    terminal.open(host);
    terminal.textarea?.setAttribute('aria-label', label);
    // Escape belongs to the dialog around us (it closes the viewer).
    terminal.attachCustomKeyEventHandler((event) => event.key !== 'Escape');
    fit.fit();
    const resize = new ResizeObserver(() => fit.fit());
    resize.observe(host);
    const stop = onReady({
      reset: (text) => {
        terminal.reset();
        terminal.write(text);
      },
      append: (text) => terminal.write(text),
    });
    terminal.focus();
    return () => {
      stop();
      resize.disconnect();
      terminal.dispose();
    };
  }, [onReady, label]);

  return <div ref={hostRef} className="terminal-view" />;
}
