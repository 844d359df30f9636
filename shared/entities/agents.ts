import { z } from 'zod';
import { AgentIdSchema, ProfileIdSchema, ProjectIdSchema, Timestamp } from './ids';

export const AgentSchema = z.object({
  id: AgentIdSchema,
  projectId: ProjectIdSchema,
  name: z.string(),
  role: z.string(),
  profileId: ProfileIdSchema,
  /** A person held automatic wakes: pending messages wait until released or woken by hand. */
  wakesHeld: z.boolean(),
  createdAt: Timestamp,
  seq: z.number().int().nonnegative(),
});
export type Agent = z.infer<typeof AgentSchema>;

/**
 * An agent that was removed, as its tasks and kept branch still name it: its name, where its
 * worktree was (gone with it), and the branch kept with its work until attached or deleted.
 */
export const FormerAgentSchema = z.object({
  id: AgentIdSchema,
  projectId: ProjectIdSchema,
  name: z.string(),
  role: z.string(),
  profileId: ProfileIdSchema,
  worktreePath: z.string().nullable(),
  keptBranch: z.string().nullable(),
  parentBranch: z.string().nullable(),
  removedAt: Timestamp,
  seq: z.number().int().nonnegative(),
});
export type FormerAgent = z.infer<typeof FormerAgentSchema>;
