/** Longest line accepted on the local socket; a client sending more is cut off, not buffered forever. */
export const MAX_LINE_BYTES = 16 * 1024 * 1024;

/**
 * Splits a byte stream into newline-terminated JSON frames. `onFrame` gets the parsed value or,
 * for a line that is not JSON, an Error describing it.
 */
export class LineDecoder {
  private buffered = '';

  constructor(private readonly onFrame: (frame: unknown) => void) {}

  /** Returns false once the pending line exceeds MAX_LINE_BYTES. */
  push(chunk: string): boolean {
    this.buffered += chunk;
    let newline: number;
    while ((newline = this.buffered.indexOf('\n')) >= 0) {
      const line = this.buffered.slice(0, newline).trim();
      this.buffered = this.buffered.slice(newline + 1);
      if (line.length > 0) this.onFrame(parseJson(line));
    }
    return this.buffered.length <= MAX_LINE_BYTES;
  }
}

export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    return new Error(`not JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
}

export function encodeLine(frame: unknown): string {
  return `${JSON.stringify(frame)}\n`;
}
