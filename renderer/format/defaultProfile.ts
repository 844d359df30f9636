import type { Agent } from '../../shared/entities/agents';
import type { AgentProfile } from '../../shared/entities/profiles';

export interface DefaultProfile {
  profileId: string;
  /** Why the profile of the project's last agent is not the one chosen; null when it is, or there is none. */
  fallbackReason: string | null;
}

function firstRunnable(profiles: readonly AgentProfile[]): AgentProfile | undefined {
  return profiles.find((profile) => !profile.unavailableReason) ?? profiles[0];
}

/**
 * The profile a new agent starts with: that of the agent added to the project last (the host's
 * record, the same in every window), so a CLI newly on PATH does not change it unasked; the first
 * runnable one when that profile is gone or cannot start, and then why.
 */
export function defaultProfile(profiles: readonly AgentProfile[], agentsInOrder: readonly Agent[]): DefaultProfile {
  const fallback = firstRunnable(profiles);
  const fallbackId = fallback?.id ?? '';
  const lastAgent = agentsInOrder.at(-1);
  if (!lastAgent) return { profileId: fallbackId, fallbackReason: null };
  const remembered = profiles.find((profile) => profile.id === lastAgent.profileId);
  // With nothing runnable, the remembered profile stays: its own note says why it cannot start.
  if (remembered && (!remembered.unavailableReason || fallback?.unavailableReason)) return { profileId: remembered.id, fallbackReason: null };
  const instead = fallback ? ` ${fallback.name} is chosen instead.` : '';
  const why = remembered
    ? `${lastAgent.name}, the last agent added here, uses ${remembered.name}, which cannot start: ${remembered.unavailableReason}`
    : `${lastAgent.name}, the last agent added here, uses the profile ${lastAgent.profileId}, which was deleted.`;
  return { profileId: fallbackId, fallbackReason: why + instead };
}
