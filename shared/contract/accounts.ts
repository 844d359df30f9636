import { z } from 'zod';
import { PausedAccountSchema } from '../appSettings';
import { AgentIdSchema } from '../entities/ids';
import { EVERY_DOOR, type MethodTable } from './methodFacts';

export const ACCOUNT_METHODS = {
  /**
   * Pauses the account the agent's CLI spends (its usage limits): Drover wakes no agent of it, in
   * any project, until `resumeAccount`; a person's own wake still delivers.
   */
  pauseAgentAccount: {
    params: z.object({ agentId: AgentIdSchema }).strict(),
    result: z.object({ account: PausedAccountSchema }),
    kind: 'changes',
    doors: EVERY_DOOR,
    agents: 'refused',
  },
  resumeAccount: {
    params: z.object({ key: z.string().min(1).max(1_000) }).strict(),
    result: z.object({ key: z.string(), resumed: z.boolean() }),
    kind: 'changes',
    doors: EVERY_DOOR,
    agents: 'refused',
  },
} as const satisfies MethodTable;

export type AccountMethodName = keyof typeof ACCOUNT_METHODS;
