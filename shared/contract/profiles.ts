import { z } from 'zod';
import { ProfileIdSchema } from '../entities/ids';
import { AgentProfileInputSchema, AgentProfileSchema } from '../entities/profiles';
import { EVERY_DOOR, type MethodTable } from './methodFacts';

export const PROFILE_METHODS = {
  listAgentProfiles: {
    params: z.object({}).strict(),
    result: z.array(AgentProfileSchema),
    kind: 'reads',
    doors: EVERY_DOOR,
    // Profiles may hold the person's keys in their env.
    agents: 'refused',
  },
  /** Creates or replaces a custom profile; built-in profiles cannot be changed. */
  saveAgentProfile: {
    params: z.object({ profile: AgentProfileInputSchema.strict() }).strict(),
    result: AgentProfileSchema,
    kind: 'changes',
    doors: EVERY_DOOR,
    // Profiles may hold the person's keys in their env.
    agents: 'refused',
  },
  deleteAgentProfile: {
    params: z.object({ profileId: ProfileIdSchema }).strict(),
    result: z.object({ profileId: ProfileIdSchema }),
    kind: 'changes',
    doors: EVERY_DOOR,
    // Profiles may hold the person's keys in their env.
    agents: 'refused',
  },
} as const satisfies MethodTable;

export type ProfileMethodName = keyof typeof PROFILE_METHODS;
