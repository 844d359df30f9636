import type { ConnectionNotice } from '../../shared/preloadBridge';
import { refusalFrame, RequestFrameSchema, type PushFrame, type ResponseFrame } from '../../shared/protocol';
import { describeIssues } from '../../shared/validationIssues';
import { connectionEndedReason, greetingFrame, greetingProblem, pageRequestProblem } from '../wire/machinePageRules';
import type { SshBridge } from '../wire/sshRelay';
import { errorText } from './errorText';
import { HostRelay } from './hostRelay';

/** How long a window waits before trying its machine again, by attempt: backoff up to half a minute. */
const RETRY_DELAYS_MS = [1_000, 2_000, 5_000, 10_000, 30_000];

export interface MachineLineOptions {
  machine: string;
  /** This Drover's version, which the line greets the machine's host with. */
  version: string;
  /** One ssh bridge to the machine's host (installing this version there first when it is missing). */
  openBridge: () => Promise<SshBridge>;
  /** What the host pushes to the page: events, terminal and task output. */
  push: (frame: PushFrame) => void;
  /** Tells the page when its machine's host is reachable, and why not when it is not. */
  notify: (notice: ConnectionNotice) => void;
}

/**
 * A desktop window of another machine: its page's line to that machine's host, over one ssh
 * bridge. The page counts as connected once the host answered the line's greeting in this
 * protocol; a bridge that could not start or went away is reported with ssh's reason and tried
 * again with backoff while the window stays, and the page then fetches its snapshots and attaches
 * again, as it does when the local host comes back. What a page may not ask a host is refused here,
 * as the browser door refuses it.
 */
export class MachineLine {
  private relay: HostRelay | null = null;
  private bridge: SshBridge | null = null;
  private notice: ConnectionNotice | null = null;
  private attempt = 0;
  private retry: NodeJS.Timeout | null = null;
  private isClosed = false;

  constructor(private readonly options: MachineLineOptions) {
    void this.connect();
  }

  /** What the page was last told (null while the first attempt is under way), to tell a page that loaded later. */
  lastNotice(): ConnectionNotice | null {
    return this.notice;
  }

  invoke(raw: unknown): Promise<ResponseFrame> {
    const frame = RequestFrameSchema.safeParse(raw);
    if (!frame.success) return Promise.resolve(refusalFrame(null, 'bad-request', `Malformed request frame: ${describeIssues(frame.error, 'params')}`));
    const problem = pageRequestProblem(frame.data);
    if (problem) return Promise.resolve(refusalFrame(frame.data.id, 'bad-request', problem));
    if (!this.relay) return Promise.resolve(refusalFrame(frame.data.id, 'bad-request', `Not connected to ${this.options.machine}${this.notice?.reason ? `: ${this.notice.reason}` : ' yet.'}`));
    return this.relay.invoke(frame.data);
  }

  /** Ends the line for good: the page went. The machine's host sees its client go; its work runs on. */
  close(): void {
    this.isClosed = true;
    if (this.retry) clearTimeout(this.retry);
    this.bridge?.end();
  }

  private async connect(): Promise<void> {
    this.retry = null;
    let bridge: SshBridge;
    try {
      bridge = await this.options.openBridge();
    } catch (error) {
      return this.lost(errorText(error));
    }
    if (this.isClosed) return bridge.end();
    this.bridge = bridge;
    // Once closed, nothing more reaches the page: the next page in the window has a line of its own.
    const relay = new HostRelay(bridge, (frame) => this.isClosed || this.options.push(frame));
    const reply = await relay.invoke(greetingFrame(this.options.version));
    if (this.isClosed) return;
    const problem = relay.isConnected() ? greetingProblem(this.options.machine, reply) : ((await bridge.ended) ?? connectionEndedReason(this.options.machine));
    if (problem) {
      bridge.end();
      return this.lost(problem);
    }
    this.relay = relay;
    this.attempt = 0;
    this.tell({ state: 'open', reason: null });
    const reason = await bridge.ended;
    this.relay = null;
    this.lost(reason ?? connectionEndedReason(this.options.machine));
  }

  private lost(reason: string): void {
    this.bridge = null;
    if (this.isClosed) return;
    this.tell({ state: 'lost', reason });
    const delay = RETRY_DELAYS_MS[Math.min(this.attempt, RETRY_DELAYS_MS.length - 1)] as number;
    this.attempt += 1;
    this.retry = setTimeout(() => void this.connect(), delay);
  }

  private tell(notice: ConnectionNotice): void {
    this.notice = notice;
    this.options.notify(notice);
  }
}
