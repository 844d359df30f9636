import { z } from 'zod';

/** Ids are opaque strings minted by the core; the prefix only helps people reading logs. */
export const ProjectIdSchema = z.string().regex(/^p-[a-z0-9]{6,32}$/, 'not a project id');
export const TaskIdSchema = z.string().regex(/^t-[a-z0-9]{6,32}$/, 'not a task id');
export const AgentIdSchema = z.string().regex(/^a-[a-z0-9]{6,32}$/, 'not an agent id');
export const ProfileIdSchema = z.string().regex(/^[a-z0-9][a-z0-9-]{0,39}$/, 'a profile id is lowercase letters, digits and dashes');

/** Milliseconds since the Unix epoch. */
const Timestamp = z.number().int().nonnegative();

export const ProjectSchema = z.object({
  id: ProjectIdSchema,
  name: z.string(),
  path: z.string(),
  createdAt: Timestamp,
  seq: z.number().int().nonnegative(),
});
export type Project = z.infer<typeof ProjectSchema>;

export const TASK_STATES = [
  'queued',
  'running',
  'cancelling',
  'succeeded',
  'failed',
  'cancelled',
  'interrupted',
] as const;
export const TaskStateSchema = z.enum(TASK_STATES);
export type TaskState = z.infer<typeof TaskStateSchema>;

export const FINISHED_TASK_STATES: readonly TaskState[] = ['succeeded', 'failed', 'cancelled', 'interrupted'];
export const ACTIVE_TASK_STATES: readonly TaskState[] = ['queued', 'running', 'cancelling'];

export function isTaskFinished(state: TaskState): boolean {
  return FINISHED_TASK_STATES.includes(state);
}

export const TaskSchema = z.object({
  id: TaskIdSchema,
  projectId: ProjectIdSchema,
  ownerAgentId: z.string().nullable(),
  label: z.string().nullable(),
  command: z.string(),
  cwd: z.string(),
  state: TaskStateSchema,
  exitCode: z.number().int().nullable(),
  signal: z.string().nullable(),
  reason: z.string().nullable(),
  attempt: z.number().int().positive(),
  retryOf: TaskIdSchema.nullable(),
  createdAt: Timestamp,
  startedAt: Timestamp.nullable(),
  endedAt: Timestamp.nullable(),
  pid: z.number().int().nullable(),
  pidStartTime: z.string().nullable(),
  logPath: z.string(),
  outputBytes: z.number().int().nonnegative(),
  seq: z.number().int().nonnegative(),
});
export type Task = z.infer<typeof TaskSchema>;

export const ProjectSettingsSchema = z.object({
  taskConcurrency: z.number().int().min(1).max(64),
  taskOutputCapBytes: z.number().int().min(1024),
  cancelGraceMs: z.number().int().min(0).max(600_000),
  /** The person muted the project's notifications; what needs them still shows in the app. */
  notificationsMuted: z.boolean(),
});
export type ProjectSettings = z.infer<typeof ProjectSettingsSchema>;

export const DEFAULT_PROJECT_SETTINGS: ProjectSettings = {
  taskConcurrency: 2,
  taskOutputCapBytes: 50 * 1024 * 1024,
  cancelGraceMs: 5_000,
  notificationsMuted: false,
};

export const ProjectListSchema = z.object({
  seq: z.number().int().nonnegative(),
  projects: z.array(ProjectSchema),
});
export type ProjectList = z.infer<typeof ProjectListSchema>;

export const StatusSchema = z.object({
  version: z.string(),
  dataDir: z.string(),
  socketPath: z.string(),
  projects: z.array(ProjectSchema),
});
export type Status = z.infer<typeof StatusSchema>;

export const TaskOutputSchema = z.object({
  taskId: TaskIdSchema,
  /** Byte offset in the log where `data` starts. */
  offset: z.number().int().nonnegative(),
  /** Byte offset just past `data`; pass it back as `offset` to continue. */
  nextOffset: z.number().int().nonnegative(),
  /** Size of the whole log at the time of reading. */
  size: z.number().int().nonnegative(),
  data: z.string(),
});
export type TaskOutput = z.infer<typeof TaskOutputSchema>;

/**
 * Which agent CLI's own signals Drover uses beyond the screen: its hooks, the per-session settings
 * that register them and Drover's MCP server, its status reports. `none`: the screen only.
 */
export const AGENT_INTEGRATIONS = ['claude', 'codex', 'gemini', 'none'] as const;
export const AgentIntegrationSchema = z.enum(AGENT_INTEGRATIONS);
export type AgentIntegration = z.infer<typeof AgentIntegrationSchema>;

/**
 * How a wake is typed: as a prompt (agent CLIs), or as a shell note — a command that only shows
 * the text (`true '…'`), so a plain shell runs nothing.
 */
export const WAKE_STYLES = ['prompt', 'shell-note'] as const;
export const WakeStyleSchema = z.enum(WAKE_STYLES);
export type WakeStyle = z.infer<typeof WakeStyleSchema>;

const Pattern = z
  .string()
  .max(500)
  .refine((source) => {
    try {
      new RegExp(source, 'm');
      return true;
    } catch {
      return false;
    }
  }, 'not a valid regular expression')
  .nullable();

export const AgentProfileInputSchema = z.object({
  id: ProfileIdSchema,
  name: z.string().trim().min(1).max(100),
  command: z.string().trim().min(1).max(1000),
  args: z.array(z.string().max(1000)).max(100),
  env: z.record(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'not an environment variable name'), z.string().max(10_000)),
  /** Matches the screen when the agent waits for a prompt. */
  promptPattern: Pattern,
  /** Matches the screen while the agent works. */
  busyPattern: Pattern,
  /** Matches the screen when the agent asks the person something. */
  needsInputPattern: Pattern,
  /** Matches the screen when the account behind the profile hit its usage limit. */
  usageLimitPattern: Pattern,
  /** Output must be quiet this long before the screen is read. */
  quietMs: z.number().int().min(50).max(60_000),
  integration: AgentIntegrationSchema,
  wakeAs: WakeStyleSchema.default('prompt'),
});
export type AgentProfileInput = z.infer<typeof AgentProfileInputSchema>;

export const AgentProfileSchema = AgentProfileInputSchema.extend({
  builtIn: z.boolean(),
  /** Null when the command is on PATH; otherwise why a session cannot start. */
  unavailableReason: z.string().nullable(),
});
export type AgentProfile = z.infer<typeof AgentProfileSchema>;

export const AgentSchema = z.object({
  id: AgentIdSchema,
  projectId: ProjectIdSchema,
  name: z.string(),
  role: z.string(),
  profileId: ProfileIdSchema,
  /** A person held automatic wakes: pending messages wait until released or woken by hand. */
  wakesHeld: z.boolean(),
  createdAt: Timestamp,
  seq: z.number().int().nonnegative(),
});
export type Agent = z.infer<typeof AgentSchema>;

export const AGENT_SESSION_STATES = ['starting', 'busy', 'ready', 'limited', 'exited'] as const;
export const AgentSessionStateSchema = z.enum(AGENT_SESSION_STATES);
export type AgentSessionState = z.infer<typeof AgentSessionStateSchema>;

/** One window of an agent CLI's own plan quota (Claude's five-hour and weekly limits). */
export const QuotaWindowSchema = z.object({
  usedPercent: z.number().min(0).max(1000),
  resetsAt: Timestamp.nullable(),
});
export type QuotaWindow = z.infer<typeof QuotaWindowSchema>;

/** What the agent CLI says of its account's quota; null where it says nothing (API keys, other CLIs). */
export const AgentQuotaSchema = z.object({
  fiveHour: QuotaWindowSchema.nullable(),
  weekly: QuotaWindowSchema.nullable(),
});
export type AgentQuota = z.infer<typeof AgentQuotaSchema>;

/**
 * What an agent CLI's hooks report, in Drover's words: a session began, a prompt was submitted (a
 * turn starts), the turn ended, the turn failed (an API error or a rate limit), the CLI waits for
 * the person (a permission or question dialog), or its plan quota changed.
 */
export const AGENT_HOOK_EVENTS = ['session-start', 'prompt-submitted', 'stopped', 'stop-failed', 'needs-input', 'quota'] as const;
export const AgentHookEventSchema = z.enum(AGENT_HOOK_EVENTS);
export type AgentHookEvent = z.infer<typeof AgentHookEventSchema>;

export const AgentSessionSchema = z.object({
  id: z.string(),
  agentId: AgentIdSchema,
  projectId: ProjectIdSchema,
  profileId: ProfileIdSchema,
  state: AgentSessionStateSchema,
  /** The agent asked the person something (a Notification hook or the needs-input pattern). */
  needsInput: z.boolean(),
  pid: z.number().int().nullable(),
  limitResetsAt: Timestamp.nullable(),
  exitCode: z.number().int().nullable(),
  /** Why it ended: 'exited', 'stopped', 'app-restart', 'spawn-failed: …'. */
  endReason: z.string().nullable(),
  /** The agent CLI's own conversation id, from its hooks, so a restart can resume it. */
  externalSessionId: z.string().nullable(),
  /** The CLI's own plan quota, where it reports one (Claude's status line, for subscribers). */
  quota: AgentQuotaSchema.nullable(),
  startedAt: Timestamp,
  endedAt: Timestamp.nullable(),
  seq: z.number().int().nonnegative(),
});
export type AgentSession = z.infer<typeof AgentSessionSchema>;

export const INBOX_KINDS = ['task-result', 'question', 'reply', 'note'] as const;
export const InboxKindSchema = z.enum(INBOX_KINDS);
export const INBOX_STATES = ['pending', 'delivered', 'read'] as const;

export const InboxMessageSchema = z.object({
  id: z.string(),
  projectId: ProjectIdSchema,
  /** The agent whose inbox holds the message. */
  agentId: AgentIdSchema,
  kind: InboxKindSchema,
  body: z.string(),
  taskId: TaskIdSchema.nullable(),
  fromAgentId: AgentIdSchema.nullable(),
  /** For a reply: the question it answers. */
  replyTo: z.string().nullable(),
  state: z.enum(INBOX_STATES),
  createdAt: Timestamp,
  deliveredAt: Timestamp.nullable(),
  readAt: Timestamp.nullable(),
  seq: z.number().int().nonnegative(),
});
export type InboxMessage = z.infer<typeof InboxMessageSchema>;

export const WAKE_STATES = ['waiting', 'delivering', 'delivered', 'failed'] as const;
export const WakeSchema = z.object({
  id: z.string(),
  projectId: ProjectIdSchema,
  agentId: AgentIdSchema,
  messageIds: z.array(z.string()),
  state: z.enum(WAKE_STATES),
  attempts: z.number().int().nonnegative(),
  /** Not delivered before this time (a usage limit's reset, or a retry's backoff). */
  notBefore: Timestamp.nullable(),
  lastError: z.string().nullable(),
  createdAt: Timestamp,
  updatedAt: Timestamp,
  seq: z.number().int().nonnegative(),
});
export type Wake = z.infer<typeof WakeSchema>;

/** Where the next part of a work-state snapshot starts: after a task, or after an inbox message. */
export const WorkStateCursorSchema = z.string().regex(/^(tasks:(t-[a-z0-9]{6,32})?|messages:(m-[a-z0-9]{6,32})?)$/, 'not a work-state cursor');

export const ProjectWorkStateSchema = z.object({
  projectId: ProjectIdSchema,
  seq: z.number().int().nonnegative(),
  tasks: z.array(TaskSchema),
  agents: z.array(AgentSchema),
  /** The latest session of each agent that has one. */
  sessions: z.array(AgentSessionSchema),
  messages: z.array(InboxMessageSchema),
  /** Wakes not yet delivered, and the latest of each agent. */
  wakes: z.array(WakeSchema),
});
export type ProjectWorkState = z.infer<typeof ProjectWorkStateSchema>;
