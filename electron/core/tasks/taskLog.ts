import fs from 'node:fs';
import path from 'node:path';

/**
 * Appends a task's output to its log file, stopping at `capBytes` with a line in the log saying
 * where and why it was cut. Write errors (a full disk) stop logging but never the task.
 */
export class TaskLog {
  private readonly stream: fs.WriteStream;
  private written = 0;
  private cut = false;
  private failure: Error | null = null;

  constructor(
    readonly file: string,
    private readonly capBytes: number,
  ) {
    // Output may hold secrets a command printed: only the owner may read it.
    try {
      fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    } catch {
      // A full disk: the stream below reports it, and the task runs all the same.
    }
    this.stream = fs.createWriteStream(file, { flags: 'a', mode: 0o600 });
    this.stream.on('error', (error) => {
      this.failure = error;
    });
  }

  get bytesWritten(): number {
    return this.written;
  }

  get error(): Error | null {
    return this.failure;
  }

  append(data: string): void {
    if (this.cut || this.failure) return;
    const bytes = Buffer.from(data, 'utf8');
    const room = this.capBytes - this.written;
    if (bytes.length <= room) {
      this.write(bytes);
      return;
    }
    this.write(bytes.subarray(0, room));
    this.cut = true;
    this.write(
      Buffer.from(
        `\r\n[drover] output cut here at ${this.capBytes} bytes (the task's output cap); the task kept running and the rest was not saved.\r\n`,
      ),
    );
  }

  /** Resolves once everything appended is on disk (or the write failed). */
  close(): Promise<void> {
    return new Promise((resolve) => {
      if (this.stream.closed || this.stream.destroyed) resolve();
      else this.stream.end(() => resolve());
    });
  }

  private write(bytes: Buffer): void {
    if (bytes.length === 0) return;
    this.written += bytes.length;
    this.stream.write(bytes);
  }
}
