import { z } from 'zod';
import { AgentIdSchema, ProjectIdSchema } from '../entities/ids';
import { MergeQueueEntrySchema } from '../entities/mergeQueue';
import { EVERY_DOOR, type MethodTable } from './methodFacts';

export const MERGE_QUEUE_METHODS = {
  /** Every entry of the project's merge queues (one per parent branch), each in its place. */
  listMergeQueue: {
    params: z.object({ projectId: ProjectIdSchema }).strict(),
    result: z.array(MergeQueueEntrySchema),
    kind: 'reads',
    doors: EVERY_DOOR,
    agents: 'own',
  },
  /** Puts the agent's branch last in the queue of its parent branch: it is rebased, checked and landed in turn. */
  queueForMerge: {
    params: z.object({ agentId: AgentIdSchema }).strict(),
    result: MergeQueueEntrySchema,
    kind: 'changes',
    doors: EVERY_DOOR,
    // What lands on the parent is the person's decision, as a merge is.
    agents: 'refused',
  },
  /** Takes the agent's entry out of the queue (a check under way is cancelled). */
  removeFromMergeQueue: {
    params: z.object({ agentId: AgentIdSchema }).strict(),
    result: z.object({ agentId: AgentIdSchema }),
    kind: 'changes',
    doors: EVERY_DOOR,
    agents: 'refused',
  },
  /** Moves a waiting entry to `place` among the waiting entries of its parent's queue (1: next to go). */
  moveInMergeQueue: {
    params: z.object({ agentId: AgentIdSchema, place: z.number().int().min(1) }).strict(),
    result: z.array(MergeQueueEntrySchema),
    kind: 'changes',
    doors: EVERY_DOOR,
    agents: 'refused',
  },
} as const satisfies MethodTable;

export type MergeQueueMethodName = keyof typeof MERGE_QUEUE_METHODS;
