import { z } from 'zod';
import { ProjectIdSchema, TaskIdSchema } from '../entities/ids';
import { TASK_STATES, TaskListSchema, TaskOutputSchema, TaskSchema, TaskStateSchema } from '../entities/tasks';
import { NonEmpty, Command, Label, FolderPath, PageLimit } from './fields';
import { EVERY_DOOR, type MethodTable } from './methodFacts';

/** The most of a task's log one readTaskOutput call returns (viewers read on from `nextOffset`). */
const MAX_OUTPUT_READ_BYTES = 4 * 1024 * 1024;

export const TASK_METHODS = {
  createTask: {
    params: z
      .object({
        projectId: ProjectIdSchema,
        command: Command,
        /** Defaults to the project root; must lie inside it. */
        cwd: FolderPath.optional(),
        ownerAgentId: NonEmpty.max(200).optional(),
        label: Label.optional(),
      })
      .strict(),
    result: TaskSchema,
    kind: 'changes',
    doors: EVERY_DOOR,
    agents: 'own',
  },
  /** Newest first, one page at a time: while `next` is not null, ask again with `after: next`. */
  listTasks: {
    params: z
      .object({
        projectId: ProjectIdSchema,
        states: z.array(TaskStateSchema).max(TASK_STATES.length).optional(),
        after: TaskIdSchema.optional(),
        limit: PageLimit.optional(),
      })
      .strict(),
    result: z.object({ tasks: TaskListSchema, next: TaskIdSchema.nullable() }),
    kind: 'reads',
    doors: EVERY_DOOR,
    agents: 'own',
  },
  getTask: {
    params: z.object({ taskId: TaskIdSchema }).strict(),
    result: TaskSchema,
    kind: 'reads',
    doors: EVERY_DOOR,
    agents: 'own',
  },
  cancelTask: {
    params: z.object({ taskId: TaskIdSchema }).strict(),
    result: TaskSchema,
    kind: 'changes',
    doors: EVERY_DOOR,
    agents: 'own',
  },
  retryTask: {
    params: z.object({ taskId: TaskIdSchema }).strict(),
    result: TaskSchema,
    kind: 'changes',
    doors: EVERY_DOOR,
    agents: 'own',
  },
  readTaskOutput: {
    params: z
      .object({
        taskId: TaskIdSchema,
        /** Start at this byte offset; with neither offset nor tailBytes, reads from the start. */
        offset: z.number().int().nonnegative().optional(),
        /** Read the last N bytes (the viewer loads the tail of large logs first). */
        tailBytes: z.number().int().positive().optional(),
        maxBytes: z.number().int().positive().max(MAX_OUTPUT_READ_BYTES).optional(),
      })
      .strict(),
    result: TaskOutputSchema,
    kind: 'reads',
    doors: EVERY_DOOR,
    agents: 'own',
  },
  /** Connection-scoped: live output chunks of the task are pushed to this connection. */
  watchTaskOutput: {
    params: z.object({ taskId: TaskIdSchema }).strict(),
    result: z.object({ taskId: TaskIdSchema }),
    kind: 'connection',
    doors: EVERY_DOOR,
    agents: 'own',
  },
  unwatchTaskOutput: {
    params: z.object({ taskId: TaskIdSchema }).strict(),
    result: z.object({ taskId: TaskIdSchema }),
    kind: 'connection',
    doors: EVERY_DOOR,
    agents: 'own',
  },
  /**
   * Flow control: the client has taken in `bytes` more bytes of this task's pushed output. A client
   * far behind gets only the newest output once it catches up (the log keeps every byte).
   */
  ackTaskOutput: {
    params: z.object({ taskId: TaskIdSchema, bytes: z.number().int().positive() }).strict(),
    result: z.object({ taskId: TaskIdSchema }),
    kind: 'connection',
    doors: EVERY_DOOR,
    agents: 'own',
  },
} as const satisfies MethodTable;

export type TaskMethodName = keyof typeof TASK_METHODS;
