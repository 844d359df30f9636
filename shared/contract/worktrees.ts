import { z } from 'zod';
import { AgentIdSchema, ProjectIdSchema } from '../entities/ids';
import { InboxMessageSchema } from '../entities/inbox';
import { BranchNameSchema, MERGE_STRATEGIES, MergeCheckSchema, MergeResultSchema, ProjectGitSchema, WorktreeDiffSchema, WorktreeDiskUsageSchema, WorktreeSchema, WorktreeStatusSchema } from '../entities/worktrees';
import { EVERY_DOOR, type MethodTable } from './methodFacts';

export const WORKTREE_METHODS = {
  /** Whether the project's folder is a git repository Drover can make worktrees in, and its branches. */
  getProjectGit: {
    params: z.object({ projectId: ProjectIdSchema }).strict(),
    result: ProjectGitSchema,
    kind: 'reads',
    doors: EVERY_DOOR,
    agents: 'own',
  },
  listWorktrees: {
    params: z.object({ projectId: ProjectIdSchema }).strict(),
    result: z.array(z.object({ agentName: z.string(), worktree: WorktreeSchema, status: WorktreeStatusSchema.nullable() })),
    kind: 'reads',
    doors: EVERY_DOOR,
    agents: 'own',
  },
  getWorktreeStatus: {
    params: z.object({ agentId: AgentIdSchema }).strict(),
    result: WorktreeStatusSchema,
    kind: 'reads',
    doors: EVERY_DOOR,
    agents: 'own',
  },
  /** What the agent's branch changed against where it left its parent: commits, staged, unstaged and untracked files. */
  getWorktreeDiff: {
    params: z.object({ agentId: AgentIdSchema }).strict(),
    result: WorktreeDiffSchema,
    kind: 'reads',
    doors: EVERY_DOOR,
    agents: 'own',
  },
  /** Connection-scoped: while watched, changes to the worktree's files move its `changedAt` (debounced). */
  watchWorktree: {
    params: z.object({ agentId: AgentIdSchema }).strict(),
    result: z.object({ agentId: AgentIdSchema }),
    kind: 'connection',
    doors: EVERY_DOOR,
    agents: 'own',
  },
  unwatchWorktree: {
    params: z.object({ agentId: AgentIdSchema }).strict(),
    result: z.object({ agentId: AgentIdSchema }),
    kind: 'connection',
    doors: EVERY_DOOR,
    agents: 'own',
  },
  /** Checks a merge into the parent without touching any checkout (git merge-tree). */
  checkWorktreeMerge: {
    params: z.object({ agentId: AgentIdSchema }).strict(),
    result: MergeCheckSchema,
    kind: 'reads',
    doors: EVERY_DOOR,
    agents: 'own',
  },
  /** Rebase-then-fast-forward, or one squashed commit; refused on conflicts or uncommitted changes in the way. */
  mergeWorktree: {
    params: z
      .object({ agentId: AgentIdSchema, strategy: z.enum(MERGE_STRATEGIES).default('rebase'), message: z.string().trim().min(1).max(10_000).optional() })
      .strict(),
    result: MergeResultSchema,
    kind: 'changes',
    doors: EVERY_DOOR,
    // Merging into the parent, handing work back and pushing are the person's decisions.
    agents: 'refused',
  },
  /** Posts the merge's conflicts to the agent's inbox: rebase on the parent and resolve them. */
  handBackWorktreeConflicts: {
    params: z.object({ agentId: AgentIdSchema }).strict(),
    result: InboxMessageSchema,
    kind: 'changes',
    doors: EVERY_DOOR,
    // Merging into the parent, handing work back and pushing are the person's decisions.
    agents: 'refused',
  },
  pushWorktreeBranch: {
    params: z.object({ agentId: AgentIdSchema, remote: BranchNameSchema.optional() }).strict(),
    result: z.object({ agentId: AgentIdSchema, remote: z.string(), branch: z.string() }),
    kind: 'changes',
    doors: EVERY_DOOR,
    // Merging into the parent, handing work back and pushing are the person's decisions.
    agents: 'refused',
  },
  getWorktreeDiskUsage: {
    params: z.object({ projectId: ProjectIdSchema }).strict(),
    result: WorktreeDiskUsageSchema,
    kind: 'reads',
    doors: EVERY_DOOR,
    agents: 'own',
  },
} as const satisfies MethodTable;

export type WorktreeMethodName = keyof typeof WORKTREE_METHODS;
