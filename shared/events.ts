import { z } from 'zod';
import { AppSettingsSchema } from './appSettings';
import { AutomationIdSchema, AutomationNoticeSchema } from './automations';
import { AgentSchema, FormerAgentSchema } from './entities/agents';
import { AgentIdSchema, ProjectIdSchema, TaskIdSchema } from './entities/ids';
import { InboxMessageSchema } from './entities/inbox';
import { MergeQueueEntrySchema } from './entities/mergeQueue';
import { ProjectSchema } from './entities/projects';
import { AgentSessionSchema } from './entities/sessions';
import { TaskSchema } from './entities/tasks';
import { WakeSchema } from './entities/wake';
import { WorktreeSchema } from './entities/worktrees';
import { HandledAttentionSchema } from './attention';
import { ForgeLinkSchema } from './forge';
import { ConflictNoticeSchema, ProjectOverlapsSchema } from './overlaps';
import { DiffCommentSchema, TurnSchema } from './turns';

const seq = z.number().int().nonnegative();

export const ProjectChangedSchema = z.object({
  name: z.literal('projectChanged'),
  seq,
  projectId: ProjectIdSchema,
  /** `null` when the project was removed from the registry. */
  project: ProjectSchema.nullable(),
});

/** The app settings changed (stamped with the app-wide seq, like `projectChanged`). */
export const AppSettingsChangedSchema = z.object({
  name: z.literal('appSettingsChanged'),
  seq,
  settings: AppSettingsSchema,
});

export const BackgroundTaskChangedSchema = z.object({
  name: z.literal('backgroundTaskChanged'),
  seq,
  projectId: ProjectIdSchema,
  task: TaskSchema,
});

/** An agent's definition (name, role, profile); `null` when it was removed. */
export const AgentChangedSchema = z.object({
  name: z.literal('agentChanged'),
  seq,
  projectId: ProjectIdSchema,
  agentId: AgentIdSchema,
  agent: AgentSchema.nullable(),
});

export const AgentSessionChangedSchema = z.object({
  name: z.literal('agentSessionChanged'),
  seq,
  projectId: ProjectIdSchema,
  session: AgentSessionSchema,
});

export const AgentInboxChangedSchema = z.object({
  name: z.literal('agentInboxChanged'),
  seq,
  projectId: ProjectIdSchema,
  message: InboxMessageSchema,
});

export const AgentWakeChangedSchema = z.object({
  name: z.literal('agentWakeChanged'),
  seq,
  projectId: ProjectIdSchema,
  wake: WakeSchema,
});

/** An agent's worktree was made, changed (its files, a merge) or went; `null` when it went. */
export const AgentWorktreeChangedSchema = z.object({
  name: z.literal('agentWorktreeChanged'),
  seq,
  projectId: ProjectIdSchema,
  agentId: AgentIdSchema,
  worktree: WorktreeSchema.nullable(),
});

/** An agent's entry in the merge queue changed (queued, under way, merged, handed back); `null` when it went. */
export const MergeQueueChangedSchema = z.object({
  name: z.literal('mergeQueueChanged'),
  seq,
  projectId: ProjectIdSchema,
  agentId: AgentIdSchema,
  entry: MergeQueueEntrySchema.nullable(),
});

/** An automation was added, paused (by the person or by itself), resumed; `null` when it was removed. */
export const AutomationChangedSchema = z.object({
  name: z.literal('automationChanged'),
  seq,
  projectId: ProjectIdSchema,
  automationId: AutomationIdSchema,
  automation: AutomationNoticeSchema.nullable(),
});

/** An agent's issue or pull request changed (a poll found news, something was sent to it); `null` when it went. */
export const AgentForgeChangedSchema = z.object({
  name: z.literal('agentForgeChanged'),
  seq,
  projectId: ProjectIdSchema,
  agentId: AgentIdSchema,
  link: ForgeLinkSchema.nullable(),
});

/** A checkpoint of an agent's worktree was taken, or pruned (`null`). */
export const AgentTurnChangedSchema = z.object({
  name: z.literal('agentTurnChanged'),
  seq,
  projectId: ProjectIdSchema,
  agentId: AgentIdSchema,
  n: z.number().int().nonnegative(),
  turn: TurnSchema.nullable(),
});

/** A comment on an agent's diff was written, sent, or deleted (`null`). */
export const DiffCommentChangedSchema = z.object({
  name: z.literal('diffCommentChanged'),
  seq,
  projectId: ProjectIdSchema,
  agentId: AgentIdSchema,
  commentId: z.string(),
  comment: DiffCommentSchema.nullable(),
});

/** An agent was removed (its record as a former agent), or its kept branch was deleted. */
export const FormerAgentChangedSchema = z.object({
  name: z.literal('formerAgentChanged'),
  seq,
  projectId: ProjectIdSchema,
  formerAgent: FormerAgentSchema,
});

/** The project's handled Needs you items changed (a page dismissed or opened one, or one ended): the whole set. */
export const HandledAttentionChangedSchema = HandledAttentionSchema.extend({ name: z.literal('handledAttentionChanged') });

/** The overlap radar's view of the project changed (its worktrees changed): the whole new view. */
export const ProjectOverlapsChangedSchema = ProjectOverlapsSchema.extend({ name: z.literal('projectOverlapsChanged'), seq });

/** Two agents' branches started to conflict (with the project's conflict alerts on); `null` when they stopped, or the alerts were turned off. */
export const ConflictNoticeChangedSchema = z.object({
  name: z.literal('conflictNoticeChanged'),
  seq,
  projectId: ProjectIdSchema,
  noticeId: z.string(),
  notice: ConflictNoticeSchema.nullable(),
});

/**
 * Every event carries `seq`, monotonic per project (and, for `projectChanged` and
 * `appSettingsChanged`, per app), and the whole new entity, so a client that applies a snapshot
 * and then only newer events is complete.
 */
export const DroverEventSchema = z.discriminatedUnion('name', [
  ProjectChangedSchema,
  BackgroundTaskChangedSchema,
  AgentChangedSchema,
  AgentSessionChangedSchema,
  AgentInboxChangedSchema,
  AgentWakeChangedSchema,
  AppSettingsChangedSchema,
  AgentWorktreeChangedSchema,
  AgentForgeChangedSchema,
  AgentTurnChangedSchema,
  DiffCommentChangedSchema,
  FormerAgentChangedSchema,
  HandledAttentionChangedSchema,
  ProjectOverlapsChangedSchema,
  ConflictNoticeChangedSchema,
  MergeQueueChangedSchema,
  AutomationChangedSchema,
]);
export type DroverEvent = z.infer<typeof DroverEventSchema>;
export type ProjectChanged = z.infer<typeof ProjectChangedSchema>;
export type AppSettingsChanged = z.infer<typeof AppSettingsChangedSchema>;
export type BackgroundTaskChanged = z.infer<typeof BackgroundTaskChangedSchema>;

/**
 * Live output of a task, batched, sent only to connections that watch that task and acknowledged
 * by them (ackTaskOutput); on the wire its data is bytes (TaskOutputBytes in protocol.ts).
 */
export const TaskOutputChunkSchema = z.object({
  taskId: TaskIdSchema,
  projectId: ProjectIdSchema,
  data: z.string(),
});
export type TaskOutputChunk = z.infer<typeof TaskOutputChunkSchema>;

/**
 * Terminal output of an agent session, batched. Clients acknowledge the bytes they have shown
 * (ackAgentOutput) so the host can pause a PTY whose client falls behind; on the wire its data is
 * bytes (TerminalBytes in protocol.ts). `at` is where the chunk starts in the agent's stream (in
 * UTF-8 bytes since the host started), so a client that attached at a snapshot's `at` takes exactly
 * the chunks after it: no gap, no duplicate. A client that acknowledged nothing for a few seconds
 * while far behind is sent nothing more; once it acknowledges again it gets an empty chunk at the
 * stream's position, past the end of what it has, and attaches again for a fresh snapshot.
 */
export const TerminalChunkSchema = z.object({
  agentId: AgentIdSchema,
  projectId: ProjectIdSchema,
  at: z.number().int().nonnegative(),
  data: z.string(),
});
export type TerminalChunk = z.infer<typeof TerminalChunkSchema>;
