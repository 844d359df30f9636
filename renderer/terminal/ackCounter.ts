/** VS Code's step: acknowledge in 5,000-character steps, well under the host's 100,000 pause mark. */
export const ACK_STEP_CHARS = 5_000;

/**
 * Flow-control accounting for one attachment: counts characters the terminal has parsed and
 * acknowledges them in steps, so the host can pause a PTY whose client falls behind.
 */
export class AckCounter {
  private unacknowledged = 0;

  constructor(
    private readonly acknowledge: (chars: number) => void,
    private readonly step = ACK_STEP_CHARS,
  ) {}

  written(chars: number): void {
    this.unacknowledged += chars;
    if (this.unacknowledged < this.step) return;
    const owed = this.unacknowledged;
    this.unacknowledged = 0;
    this.acknowledge(owed);
  }

  /** A new attachment starts with nothing owed. */
  reset(): void {
    this.unacknowledged = 0;
  }
}
