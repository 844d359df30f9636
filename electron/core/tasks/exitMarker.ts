/**
 * Linux drops a PTY's last buffered output when a fast command exits (node-pty issue #72), so a
 * task's shell announces its end with a marker carrying a per-task nonce and the exit status.
 * Seeing the marker proves every byte before it was read. This scanner strips the marker from the
 * stream, holding back only a tail that might be the marker's beginning.
 */
export class ExitMarkerScanner {
  private readonly prefix: string;
  private pending = '';
  private seen = false;
  private status: number | null = null;

  constructor(readonly nonce: string) {
    this.prefix = exitMarkerPrefix(nonce);
  }

  get markerSeen(): boolean {
    return this.seen;
  }

  get exitStatus(): number | null {
    return this.status;
  }

  /** Returns the output to pass on; everything from the marker on is not output. */
  feed(chunk: string): string {
    if (this.seen) return '';
    const text = this.pending + chunk;
    this.pending = '';
    const at = text.indexOf(this.prefix);
    if (at >= 0) {
      const end = text.indexOf('\u0007', at + this.prefix.length);
      if (end < 0) {
        this.pending = text.slice(at);
        return text.slice(0, at);
      }
      this.seen = true;
      this.status = Number.parseInt(text.slice(at + this.prefix.length, end), 10);
      return text.slice(0, at);
    }
    const keep = partialPrefixLength(text, this.prefix);
    this.pending = text.slice(text.length - keep);
    return text.slice(0, text.length - keep);
  }

  /** Output held back when the stream ended without a marker (the shell was killed). */
  flush(): string {
    const rest = this.seen ? '' : this.pending;
    this.pending = '';
    return rest;
  }
}

export function exitMarkerPrefix(nonce: string): string {
  return `\u001b]777;drover-exit;${nonce};`;
}

/** Length of the longest suffix of `text` that is a proper prefix of `marker`. */
function partialPrefixLength(text: string, marker: string): number {
  for (let from = Math.max(0, text.length - marker.length + 1); from < text.length; from++) {
    if (text[from] === marker[0] && marker.startsWith(text.slice(from))) return text.length - from;
  }
  return 0;
}
