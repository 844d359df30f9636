import { z } from 'zod';
import { AgentIdSchema, ProjectIdSchema } from './entities/ids';
import { WorktreeDiffFileSchema } from './entities/worktrees';

const Timestamp = z.number().int().nonnegative();
const Count = z.number().int().nonnegative();

/**
 * A checkpoint's kind: `start` (n = 0) is the worktree as the agent's first session found it;
 * `turn` is the end of a turn; `restore` is the worktree as it stood just before a person restored
 * an earlier checkpoint, and `revert` as it stood before a person reverted a hunk or a file, each
 * kept so that can be undone.
 */
export const CHECKPOINT_KINDS = ['start', 'turn', 'restore', 'revert'] as const;
export type CheckpointKind = (typeof CHECKPOINT_KINDS)[number];

/** The longest prompt a turn keeps (its first line is what lists show). */
export const MAX_TURN_PROMPT_CHARS = 4000;

/**
 * One checkpoint of an agent's worktree, numbered per agent from 0 (its start). Its commit, under
 * `ref`, holds every file of the worktree that git does not ignore (tracked and untracked); its
 * parents are the HEAD of that moment and a commit of the index. `before` → `after` is the change it
 * stands for: a turn's work, or what a restore changed.
 */
export const TurnSchema = z.object({
  projectId: ProjectIdSchema,
  agentId: AgentIdSchema,
  n: Count,
  kind: z.enum(CHECKPOINT_KINDS),
  /** What the person asked for, where the agent CLI's hook reported it (a shell: the command line); for a revert, what was reverted. */
  prompt: z.string().nullable(),
  /** When the turn started (null for a start or a restore). */
  startedAt: Timestamp.nullable(),
  /** When the checkpoint was taken. */
  takenAt: Timestamp,
  commit: z.string(),
  ref: z.string(),
  /** The state the change started from; null for the start. */
  before: z.string().nullable(),
  /** The state it left the worktree in: the checkpoint itself, or for a restore the state restored. */
  after: z.string(),
  /** For a restore: the checkpoint it restored. */
  restoredTo: Count.nullable(),
  files: Count,
  additions: Count,
  deletions: Count,
  seq: Count,
});
export type Turn = z.infer<typeof TurnSchema>;

/** The change between two states of an agent's worktree (checkpoints, or the worktree now). */
export const TurnDiffSchema = z.object({
  agentId: AgentIdSchema,
  /** The first checkpoint whose change is included. */
  from: Count,
  /** The last checkpoint whose change is included; null: up to the worktree as it is now. */
  to: Count.nullable(),
  base: z.string(),
  head: z.string(),
  files: z.array(WorktreeDiffFileSchema),
  additions: Count,
  deletions: Count,
});
export type TurnDiff = z.infer<typeof TurnDiffSchema>;

export const CheckpointUsageSchema = z.object({
  projectId: ProjectIdSchema,
  /** Bytes of git objects only checkpoints hold (what deleting them all would free, once git collects them). */
  bytes: Count,
  checkpoints: Count,
});
export type CheckpointUsage = z.infer<typeof CheckpointUsageSchema>;

export const DIFF_SIDES = ['old', 'new'] as const;
export type DiffSide = (typeof DIFF_SIDES)[number];

export const MAX_COMMENT_CHARS = 10_000;
export const MAX_QUOTED_CHARS = 20_000;

/** A person's comment on lines of an agent's diff, collected until sent to the agent's inbox. */
export const DiffCommentSchema = z.object({
  id: z.string(),
  projectId: ProjectIdSchema,
  agentId: AgentIdSchema,
  path: z.string(),
  /** Which file's line numbers: the old side (removed lines) or the new one. */
  side: z.enum(DIFF_SIDES),
  startLine: z.number().int().positive(),
  endLine: z.number().int().positive(),
  /** The lines commented on, as the diff showed them. */
  quoted: z.string(),
  body: z.string(),
  createdAt: Timestamp,
  sentAt: Timestamp.nullable(),
  /** The inbox message that carried it. */
  messageId: z.string().nullable(),
  seq: Count,
});
export type DiffComment = z.infer<typeof DiffCommentSchema>;

/** A repository path as a diff names it: relative, inside the worktree (no `..`, no leading `/`). */
export const DiffPathSchema = z
  .string()
  .min(1)
  .max(4096)
  .refine((value) => !value.startsWith('/') && !value.includes('\0') && !value.split('/').includes('..'), 'a path inside the worktree, relative to its top (no "..", no leading "/")');

/**
 * What of a file's change to revert, as the changes view showed it: one hunk (its text, `@@` line
 * first), or the whole file (its patch). The host reverts only what still reads the same.
 */
export const RevertTargetSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('hunk'), hunk: z.string().startsWith('@@ ').max(2 * 1024 * 1024) }).strict(),
  z.object({ kind: z.literal('file'), patch: z.string().max(2 * 1024 * 1024) }).strict(),
]);
export type RevertTarget = z.infer<typeof RevertTargetSchema>;

/** What each of several agents changed on its branch, files only (for comparing them). */
export const AgentChangesSchema = z.object({
  agentId: AgentIdSchema,
  branch: z.string(),
  files: z.array(z.object({ path: z.string(), status: WorktreeDiffFileSchema.shape.status, additions: Count, deletions: Count })),
  additions: Count,
  deletions: Count,
});
export type AgentChanges = z.infer<typeof AgentChangesSchema>;

/** The difference between two agents' worktrees as they are now (committed or not). */
export const AgentsDiffSchema = z.object({
  fromAgentId: AgentIdSchema,
  toAgentId: AgentIdSchema,
  files: z.array(WorktreeDiffFileSchema),
  additions: Count,
  deletions: Count,
});
export type AgentsDiff = z.infer<typeof AgentsDiffSchema>;

/** A prompt's first line, cut to `max` characters. */
export function promptHeadline(prompt: string | null, max = 100): string | null {
  const first = prompt?.trim().split('\n')[0]?.trim() ?? '';
  if (!first) return null;
  return first.length > max ? `${first.slice(0, max - 1)}…` : first;
}

/** What a checkpoint is, in a few words: `turn 3 (“add a test”)`, `the start`, `the state before restoring 1`. */
export function checkpointLabel(turn: Pick<Turn, 'n' | 'kind' | 'prompt' | 'restoredTo'>): string {
  if (turn.kind === 'start') return 'the start';
  if (turn.kind === 'restore') return `the state before restoring checkpoint ${turn.restoredTo ?? '?'}`;
  if (turn.kind === 'revert') return `the state before reverting ${turn.prompt ?? 'a change'}`;
  const headline = promptHeadline(turn.prompt, 60);
  return headline ? `turn ${turn.n} (“${headline}”)` : `turn ${turn.n}`;
}

/** The lines a comment is on: `line 4`, `lines 4–9`, with `(old)` for lines of the file before the change. */
export function lineRange(comment: Pick<DiffComment, 'startLine' | 'endLine' | 'side'>): string {
  const lines = comment.startLine === comment.endLine ? `line ${comment.startLine}` : `lines ${comment.startLine}–${comment.endLine}`;
  return comment.side === 'old' ? `${lines} (old)` : lines;
}
