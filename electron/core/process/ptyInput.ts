import fs from 'node:fs';
import type { IPty } from 'node-pty';

/** node-pty's Unix terminal has its master's descriptor, which its typings leave out. */
interface UnixPty {
  readonly fd: number;
}

/**
 * Input for a PTY, written to its master in order, as node-pty's own writer does (a queue, and a
 * retry on the next turn of the loop while the kernel's buffer is full). The differences: input
 * nothing waits before is written at once (see writeNow), and input still queued when the PTY goes
 * away (its program exited, its descriptor closed: EBADF or EIO) is dropped and said to
 * `onDropped`, where node-pty prints it on stderr as an unhandled error.
 */
export class PtyInput {
  private readonly queue: { buffer: Buffer; offset: number }[] = [];
  private retry: NodeJS.Immediate | undefined;
  private closed = false;

  constructor(
    private readonly pty: IPty,
    private readonly onDropped: (bytes: number, error: NodeJS.ErrnoException) => void = () => {},
  ) {}

  write(data: string): void {
    if (this.closed) return;
    const buffer = Buffer.from(data, 'utf8');
    if (buffer.length === 0) return;
    if (this.queue.length > 0) {
      this.queue.push({ buffer, offset: 0 });
      return;
    }
    const written = this.writeNow(buffer);
    if (written === null || written === buffer.length) return;
    this.queue.push({ buffer, offset: written });
    this.retry = setImmediate(() => this.writeNext());
  }

  /**
   * Input nothing waits before goes to the master at once (its descriptor does not block: a full
   * buffer takes part or none of it), not through libuv's thread pool, whose hand-off a keystroke's
   * echo waited for. Returns the bytes taken, or null once the PTY is found gone.
   */
  private writeNow(buffer: Buffer): number | null {
    try {
      return fs.writeSync(this.fd, buffer);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EAGAIN') return 0;
      this.close();
      this.onDropped(buffer.length, error as NodeJS.ErrnoException);
      return null;
    }
  }

  private get fd(): number {
    return (this.pty as unknown as UnixPty).fd;
  }

  /** The PTY exited: nothing more is written (its descriptor may be closed, and its number taken by another file). */
  close(): void {
    this.closed = true;
    clearImmediate(this.retry);
    this.queue.length = 0;
  }

  private writeNext(): void {
    this.retry = undefined;
    const task = this.queue[0];
    if (!task || this.closed) return;
    fs.write(this.fd, task.buffer, task.offset, (error, written) => {
      if (this.closed) return;
      if (error?.code === 'EAGAIN') {
        this.retry = setImmediate(() => this.writeNext());
        return;
      }
      if (error) {
        const dropped = this.queue.reduce((bytes, queued) => bytes + queued.buffer.length - queued.offset, 0);
        this.close();
        this.onDropped(dropped, error);
        return;
      }
      task.offset += written;
      if (task.offset >= task.buffer.length) this.queue.shift();
      this.writeNext();
    });
  }
}
