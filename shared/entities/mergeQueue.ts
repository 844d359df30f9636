import { z } from 'zod';
import { AgentIdSchema, ProjectIdSchema, TaskIdSchema } from './ids';

export const MERGE_QUEUE_STATES = ['queued', 'rebasing', 'checking', 'merged', 'handed-back'] as const;
export type MergeQueueState = (typeof MERGE_QUEUE_STATES)[number];

/** An entry merged or handed back is done with; until then it waits or is under way (and is not queued again). */
export function isMergeQueueSettled(state: MergeQueueState): boolean {
  return state === 'merged' || state === 'handed-back';
}

/** An agent's branch in the merge queue of its parent branch; a merged or handed-back entry stays until queued again or removed. */
export const MergeQueueEntrySchema = z.object({
  agentId: AgentIdSchema,
  projectId: ProjectIdSchema,
  agentName: z.string(),
  branch: z.string(),
  parentBranch: z.string(),
  state: z.enum(MERGE_QUEUE_STATES),
  /** Why it was handed back (the conflicting files, the check's end), or how it merged. */
  reason: z.string().nullable(),
  /** Its place among its parent's entries: lower goes first. */
  position: z.number().int(),
  /** The check task of its latest check, if one ran. */
  checkTaskId: TaskIdSchema.nullable(),
  /** The parent's tip it landed as. */
  mergedCommit: z.string().nullable(),
  queuedAt: z.number().int(),
  updatedAt: z.number().int(),
  seq: z.number().int().nonnegative(),
});
export type MergeQueueEntry = z.infer<typeof MergeQueueEntrySchema>;
