/** VS Code's step: acknowledge in 5,000-byte steps, well under the host's 100,000-byte pause mark. */
export const ACK_STEP_BYTES = 5_000;

/**
 * Flow-control accounting for one attachment (a terminal, a watched task's output): counts the
 * bytes the client has taken in and acknowledges them in steps, so the host can hold back a
 * stream whose client falls behind.
 */
export class AckCounter {
  private unacknowledged = 0;

  constructor(
    private readonly acknowledge: (bytes: number) => void,
    private readonly step = ACK_STEP_BYTES,
  ) {}

  written(bytes: number): void {
    this.unacknowledged += bytes;
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
