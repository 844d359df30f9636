import type { ProfileMethodName } from '../../../shared/contract/profiles';
import type { Methods } from '../api';
import type { ProfileRegistry } from './profileRegistry';

/** Agent profiles: the built-in ones and a person's own. */
export function profileMethods(profiles: ProfileRegistry): Methods<ProfileMethodName> {
  return {
    listAgentProfiles: () => profiles.list(),
    saveAgentProfile: ({ profile }) => profiles.save(profile),
    deleteAgentProfile: ({ profileId }) => {
      profiles.remove(profileId);
      return { profileId };
    },
  };
}
