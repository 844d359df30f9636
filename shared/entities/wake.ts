import { z } from 'zod';
import { AgentIdSchema, ProjectIdSchema, Timestamp } from './ids';

export const WAKE_STATES = ['waiting', 'delivering', 'delivered', 'failed'] as const;
export const WakeSchema = z.object({
  id: z.string(),
  projectId: ProjectIdSchema,
  agentId: AgentIdSchema,
  messageIds: z.array(z.string()),
  state: z.enum(WAKE_STATES),
  attempts: z.number().int().nonnegative(),
  /** Not delivered before this time (a usage limit's reset, or a retry's backoff). */
  notBefore: Timestamp.nullable(),
  lastError: z.string().nullable(),
  createdAt: Timestamp,
  updatedAt: Timestamp,
  seq: z.number().int().nonnegative(),
});
export type Wake = z.infer<typeof WakeSchema>;
