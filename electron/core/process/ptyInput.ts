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
    this.queue.push({ buffer, offset: 0 });
    if (this.queue.length === 1) this.writeAtOnce();
  }

  /**
   * Input nothing waits before goes to the master at once (its descriptor does not block: a full
   * buffer takes part or none of it), not through libuv's thread pool, whose hand-off a keystroke's
   * echo waited for. What the buffer did not take goes on as any queued input.
   */
  private writeAtOnce(): void {
    const task = this.queue[0] as { buffer: Buffer; offset: number };
    try {
      task.offset += fs.writeSync(this.fd, task.buffer);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') return this.drop(error as NodeJS.ErrnoException);
    }
    if (task.offset >= task.buffer.length) this.queue.shift();
    else this.retry = setImmediate(() => this.writeNext());
  }

  /** The PTY is gone: what is still queued goes nowhere, and the owner is told how much. */
  private drop(error: NodeJS.ErrnoException): void {
    const dropped = this.queue.reduce((bytes, queued) => bytes + queued.buffer.length - queued.offset, 0);
    this.close();
    this.onDropped(dropped, error);
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
      if (error) return this.drop(error);
      task.offset += written;
      if (task.offset >= task.buffer.length) this.queue.shift();
      this.writeNext();
    });
  }
}
