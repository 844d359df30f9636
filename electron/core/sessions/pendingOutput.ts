/**
 * Output held until it is used, keeping only the newest `maxChars`: a flood costs an array push
 * per chunk and an occasional compaction, never an ever-growing buffer.
 */
export class PendingOutput {
  private chunks: string[] = [];
  private chars = 0;
  private dropped = false;

  constructor(private readonly maxChars: number) {}

  push(data: string): void {
    this.chunks.push(data);
    this.chars += data.length;
    if (this.chars > 2 * this.maxChars) this.keepNewest();
  }

  get isEmpty(): boolean {
    return this.chars === 0;
  }

  /** Everything held (at most `maxChars`), and whether older output was dropped to fit. */
  take(): { data: string; dropped: boolean } {
    const dropped = this.dropped || this.chars > this.maxChars;
    const joined = this.chunks.join('');
    const data = joined.length > this.maxChars ? joined.slice(-this.maxChars) : joined;
    this.chunks = [];
    this.chars = 0;
    this.dropped = false;
    return { data, dropped };
  }

  /** Drops whole chunks from the front (no copying), keeping at least `maxChars`. */
  private keepNewest(): void {
    let drop = 0;
    while (this.chars - (this.chunks[drop]?.length ?? 0) >= this.maxChars) this.chars -= this.chunks[drop++]?.length ?? 0;
    this.chunks = this.chunks.slice(drop);
    this.dropped = true;
  }
}
