import fs from 'node:fs';
import path from 'node:path';
import { PendingOutput } from './pendingOutput';

const FLUSH_MS = 200;

/**
 * An agent terminal's raw output, kept on disk and bounded: past `capBytes` the oldest half is
 * dropped (at a line break), so a restart can show the last screens without the file growing
 * forever. Writes are batched so a flood costs a few appends a second, not one per chunk.
 */
export class ScrollbackLog {
  private size: number;
  private readonly pending: PendingOutput;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    readonly file: string,
    private readonly capBytes = 2 * 1024 * 1024,
  ) {
    this.pending = new PendingOutput(capBytes);
    fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    this.size = fs.existsSync(file) ? fs.statSync(file).size : 0;
  }

  append(data: string): void {
    this.pending.push(data);
    this.timer ??= setTimeout(() => this.flush(), FLUSH_MS);
  }

  flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.pending.isEmpty) return;
    const { data, dropped } = this.pending.take();
    try {
      if (dropped) {
        // Past the cap in one batch: what the file holds is older than anything kept.
        fs.writeFileSync(this.file, data, { mode: 0o600 });
        this.size = Buffer.byteLength(data);
      } else {
        fs.appendFileSync(this.file, data, { mode: 0o600 });
        this.size += Buffer.byteLength(data);
      }
      if (this.size > this.capBytes) this.trim();
    } catch {
      // A full disk costs scrollback history, never the session itself.
    }
  }

  /** The last `maxBytes` of the log (including what is not flushed yet), starting at a line break. */
  tail(maxBytes = 1024 * 1024): string {
    this.flush();
    if (!fs.existsSync(this.file)) return '';
    const content = fs.readFileSync(this.file);
    if (content.length <= maxBytes) return content.toString('utf8');
    const start = content.length - maxBytes;
    const lineBreak = content.indexOf(0x0a, start);
    return content.subarray(lineBreak >= 0 ? lineBreak + 1 : start).toString('utf8');
  }

  private trim(): void {
    const kept = this.tail(Math.floor(this.capBytes / 2));
    fs.writeFileSync(this.file, kept, { mode: 0o600 });
    this.size = Buffer.byteLength(kept);
  }
}
