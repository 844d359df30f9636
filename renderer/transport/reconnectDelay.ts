const FIRST_DELAY_MS = 250;
const MAX_DELAY_MS = 5_000;

/** Exponential backoff with jitter, so many tabs do not hammer a restarting host in lockstep. */
export function reconnectDelay(failedAttempts: number): number {
  const base = Math.min(MAX_DELAY_MS, FIRST_DELAY_MS * 2 ** failedAttempts);
  return Math.round(base * (0.8 + 0.4 * Math.random()));
}
