import type { AgentQuota, AgentSession } from './entities/sessions';

/** When the latest spent window of a quota frees up again; null while none is spent. */
export function quotaSpentUntil(quota: AgentQuota | null, now: number): number | null {
  const spent = [quota?.fiveHour, quota?.weekly].flatMap((window) =>
    window && window.usedPercent >= 100 && window.resetsAt !== null && window.resetsAt > now ? [window.resetsAt] : [],
  );
  return spent.length > 0 ? Math.max(...spent) : null;
}

/** When the session's usage limit lifts: a limited session's reset, else its spent quota's; null when neither holds it. */
export function limitLiftsAt(session: Pick<AgentSession, 'state' | 'limitResetsAt' | 'quota'>, now: number): number | null {
  return session.state === 'limited' ? session.limitResetsAt : quotaSpentUntil(session.quota, now);
}
