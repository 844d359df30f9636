import { z } from 'zod';
import { AgentIdSchema, BranchNameSchema, InboxMessageSchema, MERGE_STRATEGIES, MergeCheckSchema, MergeResultSchema, ProjectGitSchema, ProjectIdSchema, WorktreeDiffSchema, WorktreeDiskUsageSchema, WorktreeSchema, WorktreeStatusSchema } from '../entities';

export const WORKTREE_METHODS = {
  /** Whether the project's folder is a git repository Drover can make worktrees in, and its branches. */
  getProjectGit: {
    params: z.object({ projectId: ProjectIdSchema }).strict(),
    result: ProjectGitSchema,
  },
  listWorktrees: {
    params: z.object({ projectId: ProjectIdSchema }).strict(),
    result: z.array(z.object({ agentName: z.string(), worktree: WorktreeSchema, status: WorktreeStatusSchema.nullable() })),
  },
  getWorktreeStatus: {
    params: z.object({ agentId: AgentIdSchema }).strict(),
    result: WorktreeStatusSchema,
  },
  /** What the agent's branch changed against where it left its parent: commits, staged, unstaged and untracked files. */
  getWorktreeDiff: {
    params: z.object({ agentId: AgentIdSchema }).strict(),
    result: WorktreeDiffSchema,
  },
  /** Connection-scoped: while watched, changes to the worktree's files move its `changedAt` (debounced). */
  watchWorktree: {
    params: z.object({ agentId: AgentIdSchema }).strict(),
    result: z.object({ agentId: AgentIdSchema }),
  },
  unwatchWorktree: {
    params: z.object({ agentId: AgentIdSchema }).strict(),
    result: z.object({ agentId: AgentIdSchema }),
  },
  /** Checks a merge into the parent without touching any checkout (git merge-tree). */
  checkWorktreeMerge: {
    params: z.object({ agentId: AgentIdSchema }).strict(),
    result: MergeCheckSchema,
  },
  /** Rebase-then-fast-forward, or one squashed commit; refused on conflicts or uncommitted changes in the way. */
  mergeWorktree: {
    params: z
      .object({ agentId: AgentIdSchema, strategy: z.enum(MERGE_STRATEGIES).default('rebase'), message: z.string().trim().min(1).max(10_000).optional() })
      .strict(),
    result: MergeResultSchema,
  },
  /** Posts the merge's conflicts to the agent's inbox: rebase on the parent and resolve them. */
  handBackWorktreeConflicts: {
    params: z.object({ agentId: AgentIdSchema }).strict(),
    result: InboxMessageSchema,
  },
  pushWorktreeBranch: {
    params: z.object({ agentId: AgentIdSchema, remote: BranchNameSchema.optional() }).strict(),
    result: z.object({ agentId: AgentIdSchema, remote: z.string(), branch: z.string() }),
  },
  getWorktreeDiskUsage: {
    params: z.object({ projectId: ProjectIdSchema }).strict(),
    result: WorktreeDiskUsageSchema,
  },
} as const;

export type WorktreeMethodName = keyof typeof WORKTREE_METHODS;
