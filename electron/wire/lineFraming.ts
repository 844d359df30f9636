const NEWLINE = 0x0a;

function isBlank(line: Buffer): boolean {
  for (const byte of line) if (byte !== 0x20 && byte !== 0x09 && byte !== 0x0d) return false;
  return true;
}

/**
 * Splits a byte stream into newline-terminated lines in linear time: each byte is scanned once and
 * an unfinished line is kept as its chunks until its newline arrives. A line longer than
 * `maxLineBytes` is never buffered: `onOversized` is called as soon as it passes the limit and the
 * rest of it is skipped, so a peer that never sends a newline costs no memory.
 */
export class LineReader {
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private skipping = false;

  constructor(
    private readonly maxLineBytes: number,
    private readonly onLine: (line: Buffer) => void,
    private readonly onOversized: () => void,
  ) {}

  /** No part of a line is waiting for its newline (and none is being skipped). */
  get atLineStart(): boolean {
    return this.pendingBytes === 0 && !this.skipping;
  }

  push(chunk: Buffer): void {
    let start = 0;
    for (;;) {
      const newline = chunk.indexOf(NEWLINE, start);
      if (newline < 0) {
        this.keep(chunk.subarray(start));
        return;
      }
      const piece = chunk.subarray(start, newline);
      start = newline + 1;
      if (this.skipping) {
        this.skipping = false;
        continue;
      }
      if (this.pendingBytes + piece.length > this.maxLineBytes) {
        this.clear();
        this.onOversized();
        continue;
      }
      const line = this.pending.length > 0 ? Buffer.concat([...this.pending, piece]) : piece;
      this.clear();
      if (!isBlank(line)) this.onLine(line);
    }
  }

  private keep(rest: Buffer): void {
    if (this.skipping || rest.length === 0) return;
    if (this.pendingBytes + rest.length > this.maxLineBytes) {
      this.clear();
      this.skipping = true;
      this.onOversized();
      return;
    }
    // A copy, so a short unfinished line does not pin the whole chunk it came in.
    this.pending.push(Buffer.from(rest));
    this.pendingBytes += rest.length;
  }

  private clear(): void {
    this.pending = [];
    this.pendingBytes = 0;
  }
}
