import { z } from 'zod';
import { AgentIdSchema } from '../entities/ids';
import { ProjectSchema } from '../entities/projects';
import { EVERY_DOOR, type MethodTable } from './methodFacts';

export const CALLER_METHODS = {
  /**
   * Connection-scoped, once: this connection speaks for the agent whose running session `proof`
   * belongs to (its terminal's DROVER_AGENT_PROOF) and may from then on act only as that agent, in
   * its own project. Connections that never identify speak for the person.
   */
  identifyAgent: {
    params: z.object({ agentId: AgentIdSchema, proof: z.string().min(1).max(200) }).strict(),
    result: z.object({ agentId: AgentIdSchema, project: ProjectSchema }),
    kind: 'connection',
    doors: EVERY_DOOR,
    agents: 'own',
  },
} as const satisfies MethodTable;

export type CallerMethodName = keyof typeof CALLER_METHODS;
