/**
 * A project's `seq`: every write to any entity of the project stamps the row with the next value,
 * so the counter survives restarts as the max over the entity tables.
 */
export class SeqCounter {
  constructor(private value: number) {}

  get current(): number {
    return this.value;
  }

  next(): number {
    this.value += 1;
    return this.value;
  }

  /** Moves forward to `seq` (after a bulk write that assigned seqs itself). */
  advanceTo(seq: number): void {
    this.value = Math.max(this.value, seq);
  }

  /** Restores a value after the transaction that took seqs was rolled back. */
  reset(seq: number): void {
    this.value = seq;
  }
}
