import { z } from 'zod';
import { AgentIdSchema, ProjectIdSchema, Timestamp } from './ids';

/** A git branch name as a person types it (git check-ref-format decides the rest). */
export const BranchNameSchema = z
  .string()
  .trim()
  .min(1)
  .max(250)
  .refine((name) => !name.startsWith('-'), 'a branch name cannot start with a dash');

export const WORKTREE_STATES = ['creating', 'ready', 'missing'] as const;
export type WorktreeState = (typeof WORKTREE_STATES)[number];

/**
 * An agent's own git worktree: a checkout of its branch outside the repository. `creating` until
 * it is complete (a crash leaves it for the boot reconciliation to clean), `missing` when its
 * folder vanished (the branch is kept).
 */
export const WorktreeSchema = z.object({
  agentId: AgentIdSchema,
  projectId: ProjectIdSchema,
  /** The worktree's root folder. */
  path: z.string(),
  /** Where the agent works: the project's folder inside the worktree (the root, unless the project is a subfolder of its repository). */
  folder: z.string(),
  branch: z.string(),
  /** The branch it was made from and merges back into. */
  parentBranch: z.string(),
  /** The parent's commit the branch started from. */
  baseCommit: z.string(),
  state: z.enum(WORKTREE_STATES),
  /** Drover made the folder (and may remove it); false for an attached existing worktree. */
  ownsFolder: z.boolean(),
  /** Drover made the branch; an attached existing branch is never deleted. */
  ownsBranch: z.boolean(),
  /** First of the ten ports (DROVER_PORT … DROVER_PORT+9) no other live worktree of the machine holds. */
  portBase: z.number().int().nullable(),
  /** When Drover last saw its files change (while someone watches it). */
  changedAt: Timestamp.nullable(),
  createdAt: Timestamp,
  seq: z.number().int().nonnegative(),
});
export type Worktree = z.infer<typeof WorktreeSchema>;

/** Where a new agent works. */
export const AgentWorkspaceRequestSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('project-folder') }).strict(),
  z
    .object({
      kind: z.literal('new-worktree'),
      /** The branch to start from and merge back into; default: the project's current branch. */
      base: BranchNameSchema.optional(),
      /** Default: drover/<agent-name>-<short-random>. */
      branch: BranchNameSchema.optional(),
      /** Start from the base's last commit although the project checkout has uncommitted changes. */
      allowDirtyBase: z.boolean().optional(),
    })
    .strict(),
  z.object({ kind: z.literal('existing-branch'), branch: BranchNameSchema, parent: BranchNameSchema.optional() }).strict(),
  z.object({ kind: z.literal('existing-worktree'), path: z.string().trim().min(1).max(4096), parent: BranchNameSchema.optional() }).strict(),
]);
export type AgentWorkspaceRequest = z.input<typeof AgentWorkspaceRequestSchema>;

/** What a project's repository offers a new agent. */
export const ProjectGitSchema = z.object({
  projectId: ProjectIdSchema,
  /** Null when worktrees can be made; otherwise why not (not a repository, no git, too old a git). */
  problem: z.string().nullable(),
  currentBranch: z.string().nullable(),
  branches: z.array(z.string()),
  /** Tracked files with uncommitted changes in the project checkout. */
  dirtyFiles: z.number().int().nonnegative(),
  /** Worktrees of the repository other than the project checkout and those agents use. */
  freeWorktrees: z.array(z.object({ path: z.string(), branch: z.string().nullable() })),
});
export type ProjectGit = z.infer<typeof ProjectGitSchema>;

/** What removing or merging would touch: the worktree's uncommitted files and its branch's commits. */
export const WorktreeStatusSchema = z.object({
  agentId: AgentIdSchema,
  branch: z.string(),
  parentBranch: z.string(),
  folderExists: z.boolean(),
  branchExists: z.boolean(),
  /** Staged, unstaged and untracked files. */
  uncommittedFiles: z.number().int().nonnegative(),
  /** Commits on the branch that the parent lacks, and the other way round. */
  ahead: z.number().int().nonnegative(),
  behind: z.number().int().nonnegative(),
  /** The branch holds work its parent lacks (by content, so a squash-merged branch counts as merged). */
  unmergedWork: z.boolean(),
});
export type WorktreeStatus = z.infer<typeof WorktreeStatusSchema>;

export const DIFF_FILE_STATUSES = ['added', 'modified', 'deleted', 'renamed', 'copied', 'type-changed'] as const;
export const DIFF_ORIGINS = ['committed', 'staged', 'unstaged', 'untracked'] as const;
export type DiffOrigin = (typeof DIFF_ORIGINS)[number];

export const WorktreeDiffFileSchema = z.object({
  path: z.string(),
  /** For a rename or copy: where it came from. */
  oldPath: z.string().nullable(),
  status: z.enum(DIFF_FILE_STATUSES),
  additions: z.number().int().nonnegative(),
  deletions: z.number().int().nonnegative(),
  binary: z.boolean(),
  /** Where its changes lie: in commits of the branch, the index, the working tree, or a new untracked file. */
  origins: z.array(z.enum(DIFF_ORIGINS)),
  /** The file's part of the unified diff (`diff --git …`); null when too large to send (see `git diff`). */
  patch: z.string().nullable(),
});
export type WorktreeDiffFile = z.infer<typeof WorktreeDiffFileSchema>;

export const WorktreeDiffSchema = z.object({
  agentId: AgentIdSchema,
  branch: z.string(),
  parentBranch: z.string(),
  /** What the diff is against: where the branch left its parent (their merge base). */
  base: z.string(),
  head: z.string(),
  commits: z.array(z.object({ sha: z.string(), subject: z.string(), author: z.string(), time: Timestamp })),
  files: z.array(WorktreeDiffFileSchema),
  additions: z.number().int().nonnegative(),
  deletions: z.number().int().nonnegative(),
});
export type WorktreeDiff = z.infer<typeof WorktreeDiffSchema>;

export const MERGE_STRATEGIES = ['rebase', 'squash'] as const;
export type MergeStrategy = (typeof MERGE_STRATEGIES)[number];

/** What merging the agent's branch into its parent would do, found without touching any checkout. */
export const MergeCheckSchema = z.object({
  agentId: AgentIdSchema,
  branch: z.string(),
  parentBranch: z.string(),
  ahead: z.number().int().nonnegative(),
  behind: z.number().int().nonnegative(),
  /** Files both sides changed in ways git cannot combine. */
  conflicts: z.array(z.string()),
  /** The parent's checkout, if it has one (the project folder, usually). */
  parentCheckout: z.string().nullable(),
  /** Files the merge changes that have uncommitted changes in the parent's checkout. */
  blockingFiles: z.array(z.string()),
  uncommittedFiles: z.number().int().nonnegative(),
  /** Null when the merge can go ahead; otherwise why not, in a person's words. */
  problem: z.string().nullable(),
});
export type MergeCheck = z.infer<typeof MergeCheckSchema>;

export const MergeResultSchema = z.object({
  agentId: AgentIdSchema,
  parentBranch: z.string(),
  strategy: z.enum(MERGE_STRATEGIES),
  /** The parent's new tip. */
  commit: z.string(),
  commits: z.number().int().nonnegative(),
});
export type MergeResult = z.infer<typeof MergeResultSchema>;

export const WorktreeDiskUsageSchema = z.object({
  projectId: ProjectIdSchema,
  bytes: z.number().int().nonnegative(),
  worktrees: z.array(z.object({ agentId: AgentIdSchema, path: z.string(), bytes: z.number().int().nonnegative() })),
});
export type WorktreeDiskUsage = z.infer<typeof WorktreeDiskUsageSchema>;
