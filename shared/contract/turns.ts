import { z } from 'zod';
import { AgentIdSchema, ProjectIdSchema } from '../entities/ids';
import { InboxMessageSchema } from '../entities/inbox';
import { AgentChangesSchema, AgentsDiffSchema, CheckpointUsageSchema, DiffPathSchema, RevertTargetSchema, TurnDiffSchema, TurnSchema } from '../turns';
import { EVERY_DOOR, type MethodTable } from './methodFacts';

export const TURN_METHODS = {
  /** The agent's checkpoints, oldest first (bounded by the project's checkpoint settings). */
  listTurns: {
    params: z.object({ agentId: AgentIdSchema }).strict(),
    result: z.object({ agentId: AgentIdSchema, turns: z.array(TurnSchema) }),
    kind: 'reads',
    doors: EVERY_DOOR,
    agents: 'own',
  },
  /**
   * The change of checkpoints `from` through `to` (one turn: from = to), or with `to` null from the
   * state before `from` to the worktree as it is now.
   */
  getTurnDiff: {
    params: z.object({ agentId: AgentIdSchema, from: z.number().int().nonnegative(), to: z.number().int().nonnegative().nullable().default(null) }).strict(),
    result: TurnDiffSchema,
    kind: 'reads',
    doors: EVERY_DOOR,
    agents: 'own',
  },
  /**
   * Puts the agent's worktree (files, index, HEAD) back as it was at checkpoint `n`; refused while
   * the agent is busy. The state before becomes a checkpoint first, so the restore can be undone.
   */
  restoreTurn: {
    params: z.object({ agentId: AgentIdSchema, n: z.number().int().nonnegative() }).strict(),
    result: z.object({ agentId: AgentIdSchema, restoredTo: z.number().int().nonnegative(), undo: TurnSchema, message: InboxMessageSchema }),
    kind: 'changes',
    doors: EVERY_DOOR,
    // Restoring and comments are the person's review.
    agents: 'refused',
  },
  /**
   * Reverts one hunk or one whole file of the change from `base` (the diff's base: the branch's
   * fork point, or a checkpoint) to the worktree now, in the worktree's files; refused while the
   * agent is busy, and when the file no longer reads as it was shown. The state before becomes a
   * checkpoint first (`undo`), so restoring it puts the change back.
   */
  revertChange: {
    params: z
      .object({
        agentId: AgentIdSchema,
        base: z.string().regex(/^[0-9a-f]{40}(?:[0-9a-f]{24})?$/, 'not a commit id'),
        path: DiffPathSchema,
        /** A renamed file's path at `base`. */
        oldPath: DiffPathSchema.nullable().default(null),
        target: RevertTargetSchema,
      })
      .strict(),
    result: z.object({ agentId: AgentIdSchema, path: z.string(), undo: TurnSchema, message: InboxMessageSchema }),
    kind: 'changes',
    doors: EVERY_DOOR,
    // Restoring and comments are the person's review.
    agents: 'refused',
  },
  getCheckpointUsage: {
    params: z.object({ projectId: ProjectIdSchema }).strict(),
    result: CheckpointUsageSchema,
    kind: 'reads',
    doors: EVERY_DOOR,
    agents: 'own',
  },
  /** Which files each agent changed on its branch, committed or not (agents with their own worktrees). */
  compareAgents: {
    params: z.object({ agentIds: z.array(AgentIdSchema).min(2).max(8) }).strict(),
    result: z.array(AgentChangesSchema),
    kind: 'reads',
    doors: EVERY_DOOR,
    agents: 'refused',
  },
  /** The difference between two agents' worktrees as they are now. */
  diffAgents: {
    params: z.object({ fromAgentId: AgentIdSchema, toAgentId: AgentIdSchema }).strict(),
    result: AgentsDiffSchema,
    kind: 'reads',
    doors: EVERY_DOOR,
    agents: 'refused',
  },
} as const satisfies MethodTable;

export type TurnMethodName = keyof typeof TURN_METHODS;
