import { FitAddon } from '@xterm/addon-fit';
import { Terminal, type IDisposable } from '@xterm/xterm';
import '@xterm/xterm/css/xterm.css';
import { useEffect, useEffectEvent, useRef } from 'react';
import { findFileReferences, type FileReference } from './fileReferences';
import { readOnlyTerminalTheme, ShownThemeAddon, TERMINAL_FONT } from './terminalTheme';

/** How whoever feeds the view writes to it: replace the whole text (first load, earlier output), or append. */
export interface OutputSink {
  reset(text: string): void;
  append(text: string): void;
}

/** The text the view shows, as a person reads it (colours and cursor moves already applied). */
export type ShownText = () => string;

interface TerminalViewProps {
  onReady(sink: OutputSink, shownText: ShownText): () => void;
  label: string;
  /** A `path:line` in the text was clicked; without it, such text is no link. */
  onFileReference?(reference: FileReference): void;
}

/**
 * A read-only xterm that keeps the log's ANSI colours; hands its sink and its shown text to the
 * caller once ready. A `path:line` in it is a link when the caller takes them.
 */
export function TerminalView({ onReady, label, onFileReference }: TerminalViewProps) {
  const hostRef = useRef<HTMLDivElement>(null);
  const linksFiles = onFileReference !== undefined;
  // The latest handler, without making a new terminal each time the caller renders.
  const openFileReference = useEffectEvent((reference: FileReference) => onFileReference?.(reference));

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
    const fileLinks = linksFiles ? linkFileReferences(terminal, openFileReference) : null;
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
      fileLinks?.dispose();
      terminal.dispose();
    };
  }, [onReady, label, linksFiles]);

  return <div ref={hostRef} className="terminal-view" />;
}

/** Makes each `path:line` of a row a link (one row at a time: a reference the terminal wrapped is not found). */
function linkFileReferences(terminal: Terminal, open: (reference: FileReference) => void): IDisposable {
  return terminal.registerLinkProvider({
    provideLinks: (row, callback) => {
      const text = terminal.buffer.active.getLine(row - 1)?.translateToString(true) ?? '';
      const links = findFileReferences(text).map((reference) => ({
        range: { start: { x: reference.start + 1, y: row }, end: { x: reference.end, y: row } },
        text: text.slice(reference.start, reference.end),
        activate: () => open(reference),
      }));
      callback(links.length > 0 ? links : undefined);
    },
  });
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
