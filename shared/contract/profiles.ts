import { z } from 'zod';
import { AgentProfileInputSchema, AgentProfileSchema, ProfileIdSchema } from '../entities';

export const PROFILE_METHODS = {
  listAgentProfiles: {
    params: z.object({}).strict(),
    result: z.array(AgentProfileSchema),
  },
  /** Creates or replaces a custom profile; built-in profiles cannot be changed. */
  saveAgentProfile: {
    params: z.object({ profile: AgentProfileInputSchema.strict() }).strict(),
    result: AgentProfileSchema,
  },
  deleteAgentProfile: {
    params: z.object({ profileId: ProfileIdSchema }).strict(),
    result: z.object({ profileId: ProfileIdSchema }),
  },
} as const;

export type ProfileMethodName = keyof typeof PROFILE_METHODS;
