import type { AgentQuota, AgentSession } from '../../shared/entities/sessions';
import { formatClockTime } from './clockTime';
import type { AgentTone, Status } from './tone';

export interface AgentStatus extends Status<AgentTone> {
  /** Extra words after the badge (a usage limit's reset time). */
  detail: string | null;
}

/** What a pane's badge says about an agent's latest session (none yet reads as not started). */
export function agentStatus(session: AgentSession | undefined, now: number): AgentStatus {
  if (!session) return { label: 'Not started', tone: 'exited', detail: null };
  switch (session.state) {
    case 'starting':
      return { label: 'Starting', tone: 'starting', detail: null };
    case 'busy':
      return { label: 'Busy', tone: 'busy', detail: null };
    case 'ready':
      return session.needsInput
        ? { label: 'Needs input', tone: 'needs-input', detail: null }
        : { label: 'Ready', tone: 'ready', detail: null };
    case 'limited':
      return {
        label: 'Limited',
        tone: 'limited',
        detail: session.limitResetsAt === null ? null : `resets ${formatClockTime(session.limitResetsAt, now)}`,
      };
    case 'exited':
      return { label: 'Exited', tone: 'exited', detail: endDetail(session) };
  }
}

/**
 * Why an ended session ended, beside its badge. A CLI stopped by a signal often exits with 128 plus
 * the signal's number (Claude Code's 143 after a SIGTERM): the code of an end Drover caused says
 * nothing the reason does not, and reads like a crash.
 */
function endDetail(session: AgentSession): string | null {
  if (session.endReason === 'app-restart') return 'stopped when the host stopped';
  if (session.endReason === 'host-died') return 'ended when the host died';
  if (session.endReason === 'stopped') return 'stopped';
  return session.exitCode === null ? null : `code ${session.exitCode}`;
}

/** A session that has a process behind it: input, resize and Stop make sense. */
export function isSessionLive(session: AgentSession | undefined): session is AgentSession {
  return session !== undefined && session.state !== 'exited';
}

/** Why the session ended, in words, for the hint under an ended terminal. */
export function endedHint(session: AgentSession | undefined): string {
  if (!session) return 'Not started.';
  if (session.endReason === 'app-restart') return 'Session ended when Drover stopped.';
  if (session.endReason === 'host-died') return 'Session ended when the Drover host died.';
  if (session.endReason === 'stopped') return 'Session stopped.';
  if (session.endReason?.startsWith('spawn-failed')) return `Could not start: ${session.endReason.slice('spawn-failed: '.length)}`;
  return session.exitCode === null ? 'Session ended.' : `Session exited with code ${session.exitCode}.`;
}

/**
 * The agent CLI's own plan quota, as a short line for the pane header ("5h 42% · week 17%"), with
 * when each window resets for its tooltip; null when the CLI reports none.
 */
export function quotaSummary(quota: AgentQuota | null, now: number): { text: string; detail: string; spent: boolean } | null {
  if (!quota) return null;
  const windows = [
    ['5h', 'Five-hour window', quota.fiveHour],
    ['week', 'Weekly window', quota.weekly],
  ] as const;
  const shown = windows.filter(([, , window]) => window !== null);
  if (shown.length === 0) return null;
  return {
    text: shown.map(([short, , window]) => `${short} ${Math.round(window?.usedPercent ?? 0)}%`).join(' · '),
    detail: shown
      .map(([, long, window]) => `${long}: ${Math.round(window?.usedPercent ?? 0)}% used${window?.resetsAt ? `, resets ${formatClockTime(window.resetsAt, now)}` : ''}`)
      .join('\n'),
    spent: shown.some(([, , window]) => (window?.usedPercent ?? 0) >= 100 && (window?.resetsAt ?? 0) > now),
  };
}
