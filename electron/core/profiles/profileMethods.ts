import type { Methods } from '../api';
import type { ProfileRegistry } from './profileRegistry';

type ProfileMethod = 'listAgentProfiles' | 'saveAgentProfile' | 'deleteAgentProfile';

/** Agent profiles: the built-in ones and a person's own. */
export function profileMethods(profiles: ProfileRegistry): Methods<ProfileMethod> {
  return {
    listAgentProfiles: () => profiles.list(),
    saveAgentProfile: ({ profile }) => profiles.save(profile),
    deleteAgentProfile: ({ profileId }) => {
      profiles.remove(profileId);
      return { profileId };
    },
  };
}
