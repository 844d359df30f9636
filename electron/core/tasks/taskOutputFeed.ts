import type { TaskOutputChunk } from '../../../shared/events';

/**
 * How a watched task's live output reaches one client: batched like an agent terminal (every 5 ms,
 * or at once past 64 Ki characters) and acknowledged by the client (ackTaskOutput). A task is not
 * paused for a slow viewer, as an agent terminal is: it runs in the background and its log keeps
 * every byte. So while a client has more than `holdAbove` bytes unacknowledged, its feed holds
 * back, keeping only the newest `maxBatchChars` of output, and sends that once the client is below
 * `resumeBelow`: it learns there is more, and reads the log for the rest.
 */
export const TASK_OUTPUT_FLOW = {
  batchMs: 5,
  maxBatchChars: 64 * 1024,
  holdAbove: 1024 * 1024,
  resumeBelow: 256 * 1024,
} as const;

export class TaskOutputFeed {
  private pending: string[] = [];
  private pendingChars = 0;
  private unacknowledged = 0;
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(
    private readonly taskId: string,
    private readonly projectId: string,
    private readonly send: (chunk: TaskOutputChunk) => void,
  ) {}

  push(data: string): void {
    if (this.stopped) return;
    this.pending.push(data);
    this.pendingChars += data.length;
    if (this.holding()) this.keepNewest();
    else if (this.pendingChars >= TASK_OUTPUT_FLOW.maxBatchChars) this.flush();
    else this.timer ??= setTimeout(() => this.flush(), TASK_OUTPUT_FLOW.batchMs);
  }

  acknowledge(bytes: number): void {
    this.unacknowledged = Math.max(0, this.unacknowledged - bytes);
    if (this.pendingChars > 0 && this.unacknowledged < TASK_OUTPUT_FLOW.resumeBelow) this.flush();
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
    this.pending = [];
    this.pendingChars = 0;
  }

  private holding(): boolean {
    return this.unacknowledged > TASK_OUTPUT_FLOW.holdAbove;
  }

  /** While held back, older pending output is dropped: the client reads it from the log. */
  private keepNewest(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.pendingChars <= TASK_OUTPUT_FLOW.maxBatchChars) return;
    const data = this.pending.join('').slice(-TASK_OUTPUT_FLOW.maxBatchChars);
    this.pending = [data];
    this.pendingChars = data.length;
  }

  private flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.stopped || this.pendingChars === 0) return;
    const data = this.pending.join('');
    this.pending = [];
    this.pendingChars = 0;
    this.unacknowledged += Buffer.byteLength(data);
    this.send({ taskId: this.taskId, projectId: this.projectId, data });
  }
}
