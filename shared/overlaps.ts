import { z } from 'zod';
import { AgentIdSchema, ProjectIdSchema } from './entities/ids';

/** Lines `from`..`to` (1-based, inclusive) of a file as it was where the branches left their parent. */
export const LineRangeSchema = z.tuple([z.number().int().positive(), z.number().int().positive()]);
export type LineRange = z.infer<typeof LineRangeSchema>;

/** "2, 5-9": ranges as a person reads them. */
export const lineRangesText = (lines: readonly LineRange[]): string => lines.map(([from, to]) => (from === to ? `${from}` : `${from}-${to}`)).join(', ');

/** A file two agents both change, and the lines both change (none when they change different parts of it). */
export const OverlapFileSchema = z.object({ path: z.string(), lines: z.array(LineRangeSchema) });
export type OverlapFile = z.infer<typeof OverlapFileSchema>;

/** Two agents whose worktrees change the same files, and whether their branches' commits would conflict when merged. */
export const OverlapPairSchema = z.object({
  agents: z.tuple([AgentIdSchema, AgentIdSchema]),
  agentNames: z.tuple([z.string(), z.string()]),
  files: z.array(OverlapFileSchema),
  conflict: z.boolean(),
  /** The files `git merge-tree` of the two branches' tips finds conflicted. */
  conflictFiles: z.array(z.string()),
});
export type OverlapPair = z.infer<typeof OverlapPairSchema>;

/** An agent whose branch would conflict with its parent branch's current tip. */
export const ParentConflictSchema = z.object({
  agentId: AgentIdSchema,
  agentName: z.string(),
  branch: z.string(),
  parentBranch: z.string(),
  conflictFiles: z.array(z.string()),
});
export type ParentConflict = z.infer<typeof ParentConflictSchema>;

/** What the overlap radar sees in a project: the pairs of agents that overlap, and the branches that conflict with their parent. */
export const ProjectOverlapsSchema = z.object({
  projectId: ProjectIdSchema,
  pairs: z.array(OverlapPairSchema),
  parentConflicts: z.array(ParentConflictSchema),
});
export type ProjectOverlaps = z.infer<typeof ProjectOverlapsSchema>;

/**
 * Two agents whose branches started to conflict while the project's conflict alerts were on: a
 * Needs you item until they stop conflicting (or the person dismisses it). Its id is the pair's.
 */
export const ConflictNoticeSchema = z.object({
  id: z.string(),
  projectId: ProjectIdSchema,
  agents: z.tuple([AgentIdSchema, AgentIdSchema]),
  agentNames: z.tuple([z.string(), z.string()]),
  conflictFiles: z.array(z.string()),
  seq: z.number().int().nonnegative(),
});
export type ConflictNotice = z.infer<typeof ConflictNoticeSchema>;
