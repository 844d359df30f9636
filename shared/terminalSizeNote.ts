import type { z } from 'zod';
import { TerminalSize } from './contract/fields';

type Size = z.infer<typeof TerminalSize>;

/**
 * The host tells the viewers of an agent's terminal that its PTY changed size with a note in the
 * terminal stream itself, an OSC of a private number, at the point where the PTY was resized: a
 * viewer's terminal takes the new size after the output drawn at the old one and before the
 * program's redraw, whatever the flow control held back. Terminals that do not know the number
 * ignore it (the host's own mirror, which is resized directly).
 */
export const TERMINAL_SIZE_OSC = 7747;

export function terminalSizeNote(size: Size): string {
  return `\u001b]${TERMINAL_SIZE_OSC};${size.cols};${size.rows}\u0007`;
}

/** The OSC's payload (after `7747;`) as a size, or null when it is not one the host could have sent. */
export function readTerminalSizeNote(payload: string): Size | null {
  const match = /^(\d{1,4});(\d{1,4})$/.exec(payload);
  if (!match) return null;
  const parsed = TerminalSize.safeParse({ cols: Number(match[1]), rows: Number(match[2]) });
  return parsed.success ? parsed.data : null;
}
