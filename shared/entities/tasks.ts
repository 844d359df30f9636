import { z } from 'zod';
import { PROJECT_ID, ProjectIdSchema, TASK_ID, TaskIdSchema, Timestamp } from './ids';

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

const TASK_STATE_SET = new Set<unknown>(TASK_STATES);
const isString = (value: unknown): value is string => typeof value === 'string';
const isTaskId = (value: unknown): boolean => isString(value) && TASK_ID.test(value);
const isCount = (value: unknown): boolean => Number.isInteger(value) && (value as number) >= 0;
const isStringOrNull = (value: unknown): boolean => value === null || typeof value === 'string';
const isIntegerOrNull = (value: unknown): boolean => value === null || Number.isInteger(value);
const isCountOrNull = (value: unknown): boolean => value === null || isCount(value);

/** What is wrong with a task's field, in words, as the check below finds it. */
const TASK_PROBLEMS: Readonly<Record<keyof Task, string>> = {
  id: 'not a task id',
  projectId: 'not a project id',
  ownerAgentId: 'not a string or null',
  label: 'not a string or null',
  command: 'not a string',
  cwd: 'not a string',
  state: 'not a task state',
  exitCode: 'not a whole number or null',
  signal: 'not a string or null',
  reason: 'not a string or null',
  attempt: 'not a whole number ≥ 1',
  retryOf: 'not a task id or null',
  createdAt: 'not a whole number ≥ 0',
  startedAt: 'not a whole number ≥ 0 or null',
  endedAt: 'not a whole number ≥ 0 or null',
  pid: 'not a whole number or null',
  pidStartTime: 'not a string or null',
  logPath: 'not a string',
  outputBytes: 'not a whole number ≥ 0',
  seq: 'not a whole number ≥ 0',
};

/**
 * The first field of `task` that breaks TaskSchema's rule, or null. Field by field in plain code
 * (a test holds it to TaskSchema for every field): each read is of a named property, which stays
 * fast over 10,000 objects of one shape, where reading them by a key from a table did not.
 */
function badTaskField(task: Record<string, unknown>): keyof Task | null {
  if (!isTaskId(task.id)) return 'id';
  const projectId = task.projectId;
  if (!isString(projectId) || !PROJECT_ID.test(projectId)) return 'projectId';
  if (!isStringOrNull(task.ownerAgentId)) return 'ownerAgentId';
  if (!isStringOrNull(task.label)) return 'label';
  if (!isString(task.command)) return 'command';
  if (!isString(task.cwd)) return 'cwd';
  if (!TASK_STATE_SET.has(task.state)) return 'state';
  if (!isIntegerOrNull(task.exitCode)) return 'exitCode';
  if (!isStringOrNull(task.signal)) return 'signal';
  if (!isStringOrNull(task.reason)) return 'reason';
  if (!isCount(task.attempt) || task.attempt === 0) return 'attempt';
  if (task.retryOf !== null && !isTaskId(task.retryOf)) return 'retryOf';
  if (!isCount(task.createdAt)) return 'createdAt';
  if (!isCountOrNull(task.startedAt)) return 'startedAt';
  if (!isCountOrNull(task.endedAt)) return 'endedAt';
  if (!isIntegerOrNull(task.pid)) return 'pid';
  if (!isStringOrNull(task.pidStartTime)) return 'pidStartTime';
  if (!isString(task.logPath)) return 'logPath';
  if (!isCount(task.outputBytes)) return 'outputBytes';
  if (!isCount(task.seq)) return 'seq';
  return null;
}

/**
 * A list of tasks, as thousands come in one reply (a work-state snapshot, a page of listTasks):
 * checked against TaskSchema's rules by plain code rather than by zod, which in the page runs
 * without compiled validators (its CSP forbids eval) and took ~360 ms for 10,000 tasks. The first
 * bad field is named ("3.state: not a task state"); a test holds the two checks together.
 */
export const TaskListSchema = z
  .custom<Task[]>((value) => Array.isArray(value), 'not a list of tasks')
  .superRefine((tasks, context) => {
    for (let index = 0; index < tasks.length; index++) {
      const task = tasks[index] as unknown;
      if (typeof task !== 'object' || task === null || Array.isArray(task)) {
        context.addIssue({ code: 'custom', path: [index], message: 'not a task' });
        return;
      }
      const field = badTaskField(task as Record<string, unknown>);
      if (field !== null) {
        context.addIssue({ code: 'custom', path: [index, field], message: TASK_PROBLEMS[field] });
        return;
      }
    }
  });

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
