import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { TaskListSchema, TaskSchema, type Task } from './entities/tasks';

const TASK: Task = {
  id: 't-abcdef12',
  projectId: 'p-abcdef12',
  ownerAgentId: null,
  label: 'build',
  command: 'make',
  cwd: '/repo',
  state: 'failed',
  exitCode: 2,
  signal: null,
  reason: null,
  attempt: 1,
  retryOf: null,
  createdAt: 1_700_000_000_000,
  startedAt: 1_700_000_000_001,
  endedAt: null,
  pid: 42,
  pidStartTime: '123',
  logPath: '/data/t.log',
  outputBytes: 0,
  seq: 7,
};

/** Values that break some field's rule (each is wrong for at least one field). */
const WRONG_VALUES: unknown[] = [undefined, null, '', 'x', 't-nope', -1, 0, 1.5, 3, true, {}, [], 'running'];

describe('TaskListSchema: the plain check of a task list, held to TaskSchema', () => {
  it('accepts what TaskSchema accepts, and refuses what it refuses, field by field', () => {
    expect(TaskListSchema.safeParse([TASK, { ...TASK, id: 't-abcdef13', retryOf: 't-abcdef12', endedAt: 5, ownerAgentId: 'a-x' }]).success).toBe(true);
    for (const field of Object.keys(TASK) as (keyof Task)[]) {
      for (const value of WRONG_VALUES) {
        const task = { ...TASK, [field]: value };
        const byZod = z.array(TaskSchema).safeParse([TASK, task]);
        const byList = TaskListSchema.safeParse([TASK, task]);
        expect({ field, value, ok: byList.success }).toEqual({ field, value, ok: byZod.success });
        if (!byList.success) expect(byList.error.issues[0]?.path).toEqual([1, field]);
      }
    }
  });

  it('names the first bad field of the first bad task in words', () => {
    const result = TaskListSchema.safeParse([TASK, TASK, { ...TASK, state: 'done' }]);
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]).toMatchObject({ path: [2, 'state'], message: 'not a task state' });
    expect(TaskListSchema.safeParse({ tasks: [] }).error?.issues[0]?.message).toBe('not a list of tasks');
    expect(TaskListSchema.safeParse([TASK, 'a task']).error?.issues[0]).toMatchObject({ path: [1], message: 'not a task' });
  });
});
