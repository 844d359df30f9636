/** What one look at a pull request found. */
export type PollOutcome = { kind: 'changed' } | { kind: 'same' } | { kind: 'done' } | { kind: 'failed'; retryAt: number | null };

export interface PollerOptions {
  /** The first interval, and the one after every change. */
  baseMs: number;
  /** The longest interval an idle or failing pull request backs off to. */
  maxMs: number;
  log(line: string): void;
}

interface Watch {
  projectId: string;
  timer: NodeJS.Timeout | null;
  delayMs: number;
  running: boolean;
  /** `watch` was called while a look ran: the next one comes soon, whatever that look found. */
  soon: boolean;
}

/**
 * Looks at each open pull request again and again: soon after a change, then less and less often
 * while nothing changes or the forge fails (doubling up to `maxMs`), and not before a spent rate
 * limit resets. One look at a time per agent.
 */
export class PullRequestPoller {
  private readonly watches = new Map<string, Watch>();
  private stopped = false;

  constructor(
    private readonly look: (projectId: string, agentId: string) => Promise<PollOutcome>,
    private readonly options: PollerOptions,
  ) {}

  /** Looks soon (after `baseMs`), whatever the backoff had reached: something happened. */
  watch(projectId: string, agentId: string): void {
    if (this.stopped) return;
    const watch = this.watches.get(agentId) ?? { projectId, timer: null, delayMs: this.options.baseMs, running: false, soon: false };
    watch.delayMs = this.options.baseMs;
    this.watches.set(agentId, watch);
    if (watch.running) watch.soon = true;
    else this.arm(agentId, watch, this.options.baseMs);
  }

  unwatch(agentId: string): void {
    const watch = this.watches.get(agentId);
    if (watch?.timer) clearTimeout(watch.timer);
    this.watches.delete(agentId);
  }

  unwatchProject(projectId: string): void {
    for (const [agentId, watch] of [...this.watches]) if (watch.projectId === projectId) this.unwatch(agentId);
  }

  stop(): void {
    this.stopped = true;
    for (const agentId of [...this.watches.keys()]) this.unwatch(agentId);
  }

  private arm(agentId: string, watch: Watch, delayMs: number): void {
    if (watch.timer) clearTimeout(watch.timer);
    watch.timer = setTimeout(() => void this.run(agentId, watch), Math.max(0, delayMs));
    watch.timer.unref();
  }

  private async run(agentId: string, watch: Watch): Promise<void> {
    watch.timer = null;
    watch.running = true;
    let outcome: PollOutcome;
    try {
      outcome = await this.look(watch.projectId, agentId);
    } catch (error) {
      this.options.log(`looking at the pull request of ${agentId} failed: ${error instanceof Error ? error.message : String(error)}`);
      outcome = { kind: 'failed', retryAt: null };
    } finally {
      watch.running = false;
    }
    if (this.stopped || this.watches.get(agentId) !== watch) return;
    if (outcome.kind === 'done') {
      this.unwatch(agentId);
      return;
    }
    watch.delayMs = outcome.kind === 'changed' || watch.soon ? this.options.baseMs : Math.min(watch.delayMs * 2, this.options.maxMs);
    watch.soon = false;
    const waitMs = outcome.kind === 'failed' && outcome.retryAt !== null ? Math.max(watch.delayMs, outcome.retryAt - Date.now()) : watch.delayMs;
    this.arm(agentId, watch, waitMs);
  }
}
