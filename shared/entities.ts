import { z } from 'zod';

/** Ids are opaque strings minted by the core; the prefix only helps people reading logs. */
export const ProjectIdSchema = z.string().regex(/^p-[a-z0-9]{6,32}$/, 'not a project id');
export const TaskIdSchema = z.string().regex(/^t-[a-z0-9]{6,32}$/, 'not a task id');

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
});
export type ProjectSettings = z.infer<typeof ProjectSettingsSchema>;

export const DEFAULT_PROJECT_SETTINGS: ProjectSettings = {
  taskConcurrency: 2,
  taskOutputCapBytes: 50 * 1024 * 1024,
  cancelGraceMs: 5_000,
};

export const ProjectWorkStateSchema = z.object({
  projectId: ProjectIdSchema,
  seq: z.number().int().nonnegative(),
  tasks: z.array(TaskSchema),
});
export type ProjectWorkState = z.infer<typeof ProjectWorkStateSchema>;

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
