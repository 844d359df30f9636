import type { AgentProfile, AgentProfileInput } from '../../shared/entities/profiles';
import { errorMessage } from '../format/errorMessage';
import { loadFailed, reloading, type Loadable, type Slice, type SliceContext, type StateCell } from './slice';

export interface ProfilesSlice extends Loadable {
  /** Built-in profiles first, as the host lists them. */
  list: readonly AgentProfile[];
}

export interface ProfilesActions {
  /** Starts keeping the agent profiles loaded (they have no events: re-read after each change). */
  trackAgentProfiles(): void;
  reloadAgentProfiles(): Promise<void>;
  saveAgentProfile(profile: AgentProfileInput): Promise<AgentProfile>;
  deleteAgentProfile(profileId: string): Promise<void>;
}

/** The agent profiles, built-in and custom; loaded once someone needs them. */
export function createProfilesSlice(cell: StateCell<ProfilesSlice>, { bridge, isOpen }: SliceContext): Slice<ProfilesSlice, ProfilesActions> {
  let tracked = false;

  async function load(): Promise<void> {
    cell.set(reloading);
    try {
      const list = await bridge.call('listAgentProfiles', {});
      cell.set(() => ({ status: 'ready', error: null, list }));
    } catch (error) {
      cell.set((slice) => loadFailed(slice, errorMessage(error)));
    }
  }

  const actions: ProfilesActions = {
    trackAgentProfiles() {
      if (tracked) return;
      tracked = true;
      if (isOpen()) void load();
    },
    reloadAgentProfiles: load,
    saveAgentProfile: async (profile) => {
      const saved = await bridge.call('saveAgentProfile', { profile });
      await load();
      return saved;
    },
    deleteAgentProfile: async (profileId) => {
      await bridge.call('deleteAgentProfile', { profileId });
      await load();
    },
  };

  return {
    initial: { status: 'loading', error: null, list: [] },
    actions,
    refetch() {
      if (tracked) void load();
    },
  };
}
