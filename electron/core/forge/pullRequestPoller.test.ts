import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PullRequestPoller, type PollOutcome } from './pullRequestPoller';

describe('PullRequestPoller', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  /** A poller whose looks answer from `outcomes` in turn, recording when each look came. */
  function pollerWith(outcomes: PollOutcome[]) {
    const lookedAt: number[] = [];
    const start = Date.now();
    const poller = new PullRequestPoller(
      async () => {
        lookedAt.push(Date.now() - start);
        return outcomes.shift() ?? { kind: 'same' };
      },
      { baseMs: 1000, maxMs: 4000, log: () => {} },
    );
    return { poller, lookedAt };
  }

  it('backs off while nothing changes, up to the longest interval, and comes back soon after a change', async () => {
    const { poller, lookedAt } = pollerWith([{ kind: 'same' }, { kind: 'same' }, { kind: 'same' }, { kind: 'changed' }, { kind: 'same' }]);
    poller.watch('p-aaaaaa', 'a-aaaaaa');
    await vi.advanceTimersByTimeAsync(1000 + 2000 + 4000 + 4000 + 1000 + 2000);
    // Waits of 1 s, then 2, 4, 4 (the longest) while unchanged, then 1 s after the change, then 2.
    expect(lookedAt).toEqual([1000, 3000, 7000, 11000, 12000, 14000]);
    poller.stop();
  });

  it('waits for a spent rate limit to reset, and stops once the pull request is done', async () => {
    const { poller, lookedAt } = pollerWith([{ kind: 'failed', retryAt: Date.now() + 60_000 }, { kind: 'done' }]);
    poller.watch('p-aaaaaa', 'a-aaaaaa');
    await vi.advanceTimersByTimeAsync(59_000);
    expect(lookedAt).toEqual([1000]);
    await vi.advanceTimersByTimeAsync(10 * 60_000);
    expect(lookedAt).toEqual([1000, 60_000]);
  });
});
