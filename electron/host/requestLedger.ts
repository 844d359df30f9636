import type { ResponseFrame } from '../../shared/protocol';

/** How long a keyed call's answer is kept for a repeat: longer than a client holds a call across a drop. */
const KEPT_MS = 5 * 60_000;
/** The most answers kept; the oldest go first (a page's changes are a few a second at most). */
const KEPT_AT_MOST = 2_000;

/**
 * The keyed calls the host has applied, across its connections: a client that lost its connection
 * before the answer sends the call again with the same key on a new one, and gets the first
 * answer (waiting for it while the first is still running) instead of the call applied twice.
 */
export class RequestLedger {
  private readonly answers = new Map<string, { answer: Promise<ResponseFrame>; at: number }>();

  constructor(private readonly now: () => number = Date.now) {}

  /** Runs `apply` for a key not seen before; a repeat of the key gets the same answer (the caller gives it the repeat's id). */
  once(key: string, apply: () => Promise<ResponseFrame>): Promise<ResponseFrame> {
    this.forgetOld();
    const kept = this.answers.get(key);
    if (kept) return kept.answer;
    const answer = apply();
    this.answers.set(key, { answer, at: this.now() });
    return answer;
  }

  private forgetOld(): void {
    const oldest = this.now() - KEPT_MS;
    for (const [key, kept] of this.answers) {
      if (kept.at >= oldest && this.answers.size < KEPT_AT_MOST) break;
      this.answers.delete(key);
    }
  }
}
