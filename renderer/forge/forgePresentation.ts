import type { Check, PullRequest, RateLimit } from '../../shared/forge';
import { rateLimitLow } from '../../shared/forge';
import { formatClockTime } from '../format/clockTime';
import type { Status, Tone } from '../format/tone';

const CHECK_TONES: Readonly<Record<Check['state'], Tone>> = { pending: 'running', passed: 'done', failed: 'failed', skipped: 'cancelled' };
const CHECK_LABELS: Readonly<Record<Check['state'], string>> = { pending: 'Running', passed: 'Passed', failed: 'Failed', skipped: 'Skipped' };

export function checkStatus(check: Check): Status {
  return { label: CHECK_LABELS[check.state], tone: CHECK_TONES[check.state] };
}

/** The chip's tone: what most needs the person about the pull request. */
export function pullRequestTone(pullRequest: PullRequest): Tone {
  if (pullRequest.problem) return 'limited';
  if (pullRequest.state === 'merged') return 'done';
  if (pullRequest.state === 'closed') return 'cancelled';
  if (pullRequest.checksState === 'failed' || pullRequest.mergeability === 'conflicts') return 'failed';
  if (pullRequest.reviewDecision === 'changes-requested') return 'needs-input';
  return pullRequest.checksState === 'pending' ? 'running' : 'ready';
}

/** "GitHub API: 40 of 5,000 requests left until 14:05", only when it runs low. */
export function rateLimitNote(rate: RateLimit | null, now: number): string | null {
  if (!rateLimitLow(rate) || !rate) return null;
  return `GitHub API: ${rate.remaining.toLocaleString()} of ${rate.limit.toLocaleString()} requests left until ${formatClockTime(rate.resetsAt, now)}.`;
}
