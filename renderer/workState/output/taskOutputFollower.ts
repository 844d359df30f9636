import { AckCounter } from '../../../shared/ackCounter';
import type { Bridge, Unsubscribe } from '../../bridge';
import { errorMessage } from '../../format/errorMessage';
import type { OutputSink } from '../../terminal/TerminalView';

export interface FollowerStatus {
  loading: boolean;
  /** Bytes before what is shown; "Load earlier output" fetches them. */
  earlierBytes: number;
  error: string | null;
}

export const TAIL_BYTES = 256 * 1024;
const EARLIER_STEP_BYTES = 1024 * 1024;
/** Pushed bytes can reach us before the host has flushed them to the log; look again shortly. */
const UNFLUSHED_RETRY_MS = 120;
/** Bytes past the task's output cap never reach the log: stop looking for them after a while. */
const MAX_EMPTY_RETRIES = 10;

/**
 * Shows one task's log and follows it live. Pushed chunks only say "there is more": the bytes
 * themselves are read from the log by offset, so nothing shows twice or goes missing, even across
 * the first read racing the first chunks, or a reconnect (which drops the watch; we watch again).
 */
export class TaskOutputFollower {
  private text = '';
  private startOffset = 0;
  private endOffset = 0;
  private loaded = false;
  private reading = false;
  private readAgain = false;
  private unflushedBytes = 0;
  private emptyRetries = 0;
  private retryTimer: ReturnType<typeof setTimeout> | undefined;
  private stopped = false;
  private readonly subscriptions: Unsubscribe[] = [];
  private readonly acks: AckCounter;

  constructor(
    private readonly bridge: Bridge,
    private readonly taskId: string,
    private readonly sink: OutputSink,
    private readonly onStatus: (status: FollowerStatus) => void,
  ) {
    this.acks = new AckCounter((bytes) => {
      this.bridge.call('ackTaskOutput', { taskId: this.taskId, bytes }).catch(() => undefined);
    });
  }

  start(): void {
    this.subscriptions.push(
      this.bridge.onOutput((chunk) => {
        if (chunk.taskId !== this.taskId) return;
        this.unflushedBytes += chunk.data.byteLength;
        this.acks.written(chunk.data.byteLength);
        this.refresh();
      }),
      this.bridge.onConnectionChange((state) => {
        if (state === 'open') void this.connect();
      }),
    );
    if (this.bridge.connectionState() === 'open') void this.connect();
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.retryTimer);
    this.subscriptions.forEach((unsubscribe) => unsubscribe());
    if (this.bridge.connectionState() === 'open') {
      this.bridge.call('unwatchTaskOutput', { taskId: this.taskId }).catch(() => undefined);
    }
  }

  /** Reads whatever the log gained (call it when the task ends: its log is complete then). */
  refresh(): void {
    if (!this.loaded || this.reading) {
      this.readAgain = true;
      return;
    }
    void this.readNewBytes();
  }

  async loadEarlier(): Promise<void> {
    if (this.startOffset === 0 || this.stopped) return;
    const from = Math.max(0, this.startOffset - EARLIER_STEP_BYTES);
    this.report({ loading: true });
    try {
      const slice = await this.bridge.call('readTaskOutput', { taskId: this.taskId, offset: from, maxBytes: this.startOffset - from });
      if (this.stopped) return;
      this.startOffset = slice.offset;
      this.text = slice.data + this.text;
      this.sink.reset(this.text);
      this.report({ loading: false });
    } catch (error) {
      this.report({ loading: false, error: errorMessage(error) });
    }
  }

  private async connect(): Promise<void> {
    this.acks.reset();
    try {
      await this.bridge.call('watchTaskOutput', { taskId: this.taskId });
      if (this.loaded) {
        this.refresh();
        return;
      }
      this.report({ loading: true });
      const slice = await this.bridge.call('readTaskOutput', { taskId: this.taskId, tailBytes: TAIL_BYTES });
      if (this.stopped) return;
      this.startOffset = slice.offset;
      this.endOffset = slice.nextOffset;
      this.text = slice.data;
      this.sink.reset(this.text);
      this.loaded = true;
      this.unflushedBytes = 0;
      this.report({ loading: false });
      if (this.readAgain) this.refresh();
    } catch (error) {
      if (!this.stopped) this.report({ loading: false, error: errorMessage(error) });
    }
  }

  private async readNewBytes(): Promise<void> {
    this.reading = true;
    try {
      do {
        this.readAgain = false;
        const slice = await this.bridge.call('readTaskOutput', { taskId: this.taskId, offset: this.endOffset });
        if (this.stopped) return;
        const gained = slice.nextOffset - this.endOffset;
        this.emptyRetries = gained > 0 ? 0 : this.emptyRetries + 1;
        this.endOffset = slice.nextOffset;
        this.unflushedBytes = Math.max(0, this.unflushedBytes - gained);
        if (slice.data) {
          this.text += slice.data;
          this.sink.append(slice.data);
        }
        if (slice.nextOffset < slice.size) this.readAgain = true;
      } while (this.readAgain && !this.stopped);
    } catch (error) {
      if (!this.stopped) this.report({ loading: false, error: errorMessage(error) });
    } finally {
      this.reading = false;
    }
    if (this.emptyRetries > MAX_EMPTY_RETRIES) this.unflushedBytes = 0;
    if (this.unflushedBytes > 0 && !this.stopped) {
      clearTimeout(this.retryTimer);
      this.retryTimer = setTimeout(() => this.refresh(), UNFLUSHED_RETRY_MS);
    }
  }

  private report(status: Partial<FollowerStatus>): void {
    if (this.stopped) return;
    this.onStatus({ loading: false, error: null, earlierBytes: this.startOffset, ...status });
  }
}
