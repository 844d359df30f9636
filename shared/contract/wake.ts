import { z } from 'zod';
import { AgentIdSchema } from '../entities';

export const WAKE_METHODS = {
  /** Delivers the agent's pending messages now if its session is ready (a person's "wake"). */
  wakeAgent: {
    params: z.object({ agentId: AgentIdSchema }).strict(),
    result: z.object({ agentId: AgentIdSchema, delivered: z.number().int().nonnegative() }),
  },
} as const;

export type WakeMethodName = keyof typeof WAKE_METHODS;
