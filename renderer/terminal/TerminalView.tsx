import { FitAddon } from '@xterm/addon-fit';
import { Terminal } from '@xterm/xterm';
import '@xterm/xterm/css/xterm.css';
import { useEffect, useRef } from 'react';
import { readOnlyTerminalTheme, ShownThemeAddon, TERMINAL_FONT } from './terminalTheme';

/** How whoever feeds the view writes to it: replace the whole text (first load, earlier output), or append. */
export interface OutputSink {
  reset(text: string): void;
  append(text: string): void;
}

/** The text the view shows, as a person reads it (colours and cursor moves already applied). */
export type ShownText = () => string;

/** A read-only xterm that keeps the log's ANSI colours; hands its sink and its shown text to the caller once ready. */
export function TerminalView({ onReady, label }: { onReady(sink: OutputSink, shownText: ShownText): () => void; label: string }) {
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
    });
    const fit = new FitAddon();
    terminal.loadAddon(fit);
    terminal.loadAddon(new ShownThemeAddon(readOnlyTerminalTheme));
    terminal.open(host);
    terminal.textarea?.setAttribute('aria-label', label);
    if (terminal.textarea) terminal.textarea.readOnly = true;
    // Nothing can be typed here: Escape and the letter keys belong to the dialog around us (close, cancel, retry).
    terminal.attachCustomKeyEventHandler((event) => event.key !== 'Escape' && !typesACharacter(event));
    fit.fit();
    const resize = new ResizeObserver(() => fit.fit());
    resize.observe(host);
    const sink: OutputSink = {
      reset: (text) => {
        terminal.reset();
        terminal.write(text);
      },
      append: (text) => terminal.write(text),
    };
    const stop = onReady(sink, () => shownText(terminal));
    terminal.focus();
    return () => {
      stop();
      resize.disconnect();
      terminal.dispose();
    };
  }, [onReady, label]);

  return <div ref={hostRef} className="terminal-view" />;
}

function typesACharacter(event: KeyboardEvent): boolean {
  return event.key.length === 1 && !event.ctrlKey && !event.altKey && !event.metaKey;
}

/** Lines the terminal wrapped at its width are joined back into the line the program wrote. */
function shownText(terminal: Terminal): string {
  const buffer = terminal.buffer.active;
  const lines: string[] = [];
  for (let row = 0; row < buffer.length; row++) {
    const line = buffer.getLine(row);
    if (!line) continue;
    const continues = buffer.getLine(row + 1)?.isWrapped ?? false;
    const text = line.translateToString(!continues);
    if (line.isWrapped && lines.length > 0) lines[lines.length - 1] += text;
    else lines.push(text);
  }
  return lines.join('\n').trimEnd();
}
