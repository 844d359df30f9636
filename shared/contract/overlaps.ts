import { z } from 'zod';
import { AgentIdSchema, ProjectIdSchema } from '../entities/ids';
import { InboxMessageSchema } from '../entities/inbox';
import { ProjectOverlapsSchema } from '../overlaps';
import { EVERY_DOOR, type MethodTable } from './methodFacts';

export const OVERLAP_METHODS = {
  /** Which agents' worktrees change the same files and lines, and whose branches would conflict (with each other or their parent). */
  listOverlaps: {
    params: z.object({ projectId: ProjectIdSchema }).strict(),
    result: ProjectOverlapsSchema,
    kind: 'reads',
    doors: EVERY_DOOR,
    agents: 'own',
  },
  /** Sends each of two agents whose branches conflict a note naming the files, the lines each changes there, and the other agent. */
  tellOverlapAgents: {
    params: z.object({ projectId: ProjectIdSchema, agents: z.tuple([AgentIdSchema, AgentIdSchema]) }).strict(),
    result: z.array(InboxMessageSchema),
    kind: 'changes',
    doors: EVERY_DOOR,
    // Whom to interrupt about whose work is the person's call.
    agents: 'refused',
  },
} as const satisfies MethodTable;

export type OverlapMethodName = keyof typeof OVERLAP_METHODS;
