import { accountOf, type AgentAccount } from '../../../shared/agentAccounts';
import type { PausedAccount } from '../../../shared/appSettings';
import type { AppSettingsService } from '../appSettings/appSettingsService';
import type { EventBus } from '../events/eventBus';
import { fail } from '../errors';
import type { ProfileRegistry } from '../profiles/profileRegistry';

/**
 * Accounts a person paused, kept in the app settings so a restart keeps them: while one is paused,
 * Drover types no wake into any agent of it (in every project), and a Claude Code session started
 * meanwhile does not continue by itself when its usage limit resets.
 */
export class AccountPauses {
  constructor(
    private readonly settings: AppSettingsService,
    private readonly profiles: ProfileRegistry,
  ) {}

  list(): PausedAccount[] {
    return this.settings.read().settings.pausedAccounts;
  }

  /** Whether the account the profile's agents spend is paused; an unknown profile is not. */
  isPaused(profileId: string): boolean {
    // Asked before every wake: with nothing paused, no profile is looked up.
    const paused = this.list();
    if (paused.length === 0) return false;
    const account = this.accountOfProfile(profileId);
    return account !== null && paused.some((entry) => entry.key === account.key);
  }

  /** Pauses the account of the profile (again is a no-op, keeping when it was first paused). */
  pause(profileId: string): PausedAccount {
    const profile = this.profiles.list().find((candidate) => candidate.id === profileId) ?? fail('not-found', `No agent profile ${profileId}.`);
    const account = accountOf(profile) ?? fail('invalid-state', `${profile.name} is a shell: it spends no account to pause. Hold an agent's wakes in its inbox instead.`);
    const paused = this.list();
    const already = paused.find((entry) => entry.key === account.key);
    if (already) return already;
    const entry: PausedAccount = { ...account, pausedAt: Date.now() };
    this.settings.update({ pausedAccounts: [...paused, entry] });
    return entry;
  }

  /** Resumes the account; false when it was not paused. */
  resume(key: string): boolean {
    const paused = this.list();
    const rest = paused.filter((entry) => entry.key !== key);
    if (rest.length === paused.length) return false;
    this.settings.update({ pausedAccounts: rest });
    return true;
  }

  /** Settles once the profile's account is not paused (at once when it is not); pauses live in the app settings, so their change is heard there. */
  whenFree(profileId: string, events: EventBus): Promise<void> {
    if (!this.isPaused(profileId)) return Promise.resolve();
    return new Promise((resolve) => {
      const stop = events.onEvent((event) => {
        if (event.name !== 'appSettingsChanged' || this.isPaused(profileId)) return;
        stop();
        resolve();
      });
    });
  }

  private accountOfProfile(profileId: string): AgentAccount | null {
    const profile = this.profiles.list().find((candidate) => candidate.id === profileId);
    return profile ? accountOf(profile) : null;
  }
}
