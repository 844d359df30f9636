import { useEffect, useMemo } from 'react';
import { accountOf, type AccountProfile, type AgentAccount } from '../../shared/agentAccounts';
import type { PausedAccount } from '../../shared/appSettings';
import type { Agent } from '../../shared/entities/agents';
import type { AgentProfile } from '../../shared/entities/profiles';
import { limitLiftsAt } from '../../shared/limitReset';
import { useAppSettings, useProfiles } from '../store/hooks';
import type { WorkStates } from '../store/projectWorkState';
import { useDroverActions } from '../store/StoreContext';
import { entitiesOf } from '../store/versioned';

export interface AccountPauses {
  paused: readonly PausedAccount[];
  /** The account the agent spends, and whether it is paused; null while its profile is not known, or for a shell (it spends none). */
  accountOf(agent: Pick<Agent, 'profileId'>): (AgentAccount & { paused: boolean }) | null;
}

/** The paused accounts (kept loaded while a component reads them) and each agent's account. */
export function useAccountPauses(): AccountPauses {
  const { trackAppSettings, trackAgentProfiles } = useDroverActions();
  useEffect(trackAppSettings, [trackAppSettings]);
  useEffect(trackAgentProfiles, [trackAgentProfiles]);
  const paused = useAppSettings().settings?.pausedAccounts;
  const profiles = useProfiles().list;
  return useMemo(() => {
    const keys = new Set((paused ?? []).map((entry) => entry.key));
    const byId = new Map<string, AgentProfile>(profiles.map((profile) => [profile.id, profile]));
    return {
      paused: paused ?? [],
      accountOf: (agent) => {
        const profile = byId.get(agent.profileId);
        if (!profile) return null;
        const account = accountOf(profile);
        return account && { ...account, paused: keys.has(account.key) };
      },
    };
  }, [paused, profiles]);
}

/** When the account's usage limit lifts, as far as its agents' sessions tell: their latest reset; null when none is limited. */
export function accountResetsAt(key: string, workStates: WorkStates, profiles: readonly AccountProfile[], now: number): number | null {
  const ofAccount = new Set(profiles.filter((profile) => accountOf(profile)?.key === key).map((profile) => profile.id));
  let latest: number | null = null;
  for (const slice of Object.values(workStates)) {
    for (const session of entitiesOf(slice.sessionsByAgentId)) {
      if (!ofAccount.has(session.profileId) || session.state === 'exited') continue;
      const liftsAt = limitLiftsAt(session, now);
      if (liftsAt !== null) latest = latest === null ? liftsAt : Math.max(latest, liftsAt);
    }
  }
  return latest;
}
