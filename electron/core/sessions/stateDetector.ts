import type { AgentProfileInput, AgentSessionState } from '../../../shared/entities';
import { parseLimitReset } from './usageLimit';

export interface DetectedState {
  state: Exclude<AgentSessionState, 'exited'>;
  needsInput: boolean;
  limitResetsAt: number | null;
}

export type HookEvent = 'prompt-submitted' | 'stopped' | 'needs-input' | 'session-start';

export type StateSignal =
  | { kind: 'hook'; event: HookEvent }
  /** The visible screen, read after output has been quiet for the profile's quiet period. */
  | { kind: 'screen'; text: string; hooksSeen: boolean };

function matches(pattern: string | null, text: string): boolean {
  return pattern !== null && new RegExp(pattern, 'm').test(text);
}

/** The last `count` non-empty lines: prompts and spinners live at the bottom of the screen. */
function bottomLines(text: string, count: number): string {
  return text
    .split('\n')
    .map((line) => line.trimEnd())
    .filter((line) => line.length > 0)
    .slice(-count)
    .join('\n');
}

/**
 * The state an agent session moves to on a signal. Hooks are the agent's own word and win; the
 * screen is read only where hooks say nothing (before the first hook, for agents without hooks, and
 * always for usage limits, which no hook reports). Returns null when the signal changes nothing.
 */
export function detectState(
  current: DetectedState,
  signal: StateSignal,
  profile: Pick<AgentProfileInput, 'promptPattern' | 'busyPattern' | 'needsInputPattern' | 'usageLimitPattern' | 'integration'>,
  now: number,
): DetectedState | null {
  const next = signal.kind === 'hook' ? fromHook(current, signal.event) : fromScreen(current, signal, profile, now);
  if (!next) return null;
  const same = next.state === current.state && next.needsInput === current.needsInput && next.limitResetsAt === current.limitResetsAt;
  return same ? null : next;
}

function fromHook(current: DetectedState, event: HookEvent): DetectedState | null {
  if (current.state === 'limited') return null;
  switch (event) {
    case 'prompt-submitted':
      return { state: 'busy', needsInput: false, limitResetsAt: null };
    case 'stopped':
      return { state: 'ready', needsInput: false, limitResetsAt: null };
    case 'needs-input':
      return { state: 'ready', needsInput: true, limitResetsAt: null };
    case 'session-start':
      return current.state === 'starting' ? { state: 'ready', needsInput: false, limitResetsAt: null } : null;
  }
}

function fromScreen(
  current: DetectedState,
  signal: { text: string; hooksSeen: boolean },
  profile: Pick<AgentProfileInput, 'promptPattern' | 'busyPattern' | 'needsInputPattern' | 'usageLimitPattern' | 'integration'>,
  now: number,
): DetectedState | null {
  const bottom = bottomLines(signal.text, 12);
  if (matches(profile.usageLimitPattern, bottom)) {
    return { state: 'limited', needsInput: false, limitResetsAt: parseLimitReset(bottom, now) ?? current.limitResetsAt };
  }
  if (current.state === 'limited' && current.limitResetsAt !== null && now < current.limitResetsAt) return null;
  const hooksDecide = signal.hooksSeen && profile.integration === 'claude-hooks';
  if (matches(profile.needsInputPattern, bottom)) return { state: 'ready', needsInput: true, limitResetsAt: null };
  // Hooks say nothing between a permission answer and Stop, so the screen may still report work.
  if (hooksDecide && current.state !== 'limited' && !current.needsInput) return null;
  if (matches(profile.busyPattern, bottom)) return { state: 'busy', needsInput: false, limitResetsAt: null };
  if (matches(profile.promptPattern, bottomLines(signal.text, 3))) return { state: 'ready', needsInput: false, limitResetsAt: null };
  return null;
}
