import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir, removeDir } from '../../../test-support/tempDir';
import { PROJECT_MIGRATIONS } from './projectSchema';
import { SeqCounter } from './seqCounter';
import { openDatabase, type SqliteDatabase } from './sqlite';
import type { Task } from '../../../shared/entities/tasks';
import { ENDED_RANGE, TaskStore, type NewTask } from './taskStore';

/** Text that a JSON round trip could get wrong: quotes, escapes, control characters, NUL, astral and line-separator characters. */
const AWKWARD = 'say "hi" \\ there\n\ttab \u0000 nul \u0001 \u2028 😀 ünïcödé';

describe('TaskStore', () => {
  let dir: string;
  let db: SqliteDatabase;
  let store: TaskStore;

  const newTask = (id: string, fields: Partial<NewTask> = {}): NewTask => ({
    id,
    ownerAgentId: null,
    label: null,
    command: 'make test',
    cwd: dir,
    attempt: 1,
    retryOf: null,
    createdAt: 1_700_000_000_123,
    logPath: path.join(dir, `${id}.log`),
    ...fields,
  });
  /** The store as a fresh process would find it: nothing remembered but the file. */
  const reopened = () => new TaskStore(db, 'p-test00', new SeqCounter(1_000));

  beforeEach(() => {
    dir = makeTempDir();
    db = openDatabase(path.join(dir, 'state.sqlite'), { migrations: PROJECT_MIGRATIONS, description: 'test' });
    store = new TaskStore(db, 'p-test00', new SeqCounter(0));
  });
  afterEach(() => {
    db.close();
    removeDir(dir);
  });

  it('returns from insert exactly the task that is stored, every text kept as written', () => {
    const inserted = store.insert(newTask('t-text0001', { ownerAgentId: 'agent-1', label: AWKWARD, command: `echo '${AWKWARD}'`, cwd: path.join(dir, AWKWARD) }));
    expect(inserted).toEqual({
      id: 't-text0001',
      projectId: 'p-test00',
      ownerAgentId: 'agent-1',
      label: AWKWARD,
      command: `echo '${AWKWARD}'`,
      cwd: path.join(dir, AWKWARD),
      state: 'queued',
      exitCode: null,
      signal: null,
      reason: null,
      attempt: 1,
      retryOf: null,
      createdAt: 1_700_000_000_123,
      startedAt: null,
      endedAt: null,
      pid: null,
      pidStartTime: null,
      logPath: path.join(dir, 't-text0001.log'),
      outputBytes: 0,
      seq: 1,
    });
    expect(reopened().get('t-text0001')).toEqual(inserted);
  });

  it('returns from update the task as stored after the change, with the next seq', () => {
    store.insert(newTask('t-text0002'));
    const started = store.update('t-text0002', { state: 'running', startedAt: 1_700_000_000_200, pid: 4242, pidStartTime: '987654' });
    expect(started).toMatchObject({ state: 'running', startedAt: 1_700_000_000_200, pid: 4242, pidStartTime: '987654', endedAt: null, seq: 2 });
    const ended = store.update('t-text0002', { state: 'failed', endedAt: 1_700_000_000_300, exitCode: 2, signal: null, reason: AWKWARD, outputBytes: 9 });
    expect(ended).toEqual({ ...started, state: 'failed', endedAt: 1_700_000_000_300, exitCode: 2, reason: AWKWARD, outputBytes: 9, seq: 3 });
    expect(reopened().get('t-text0002')).toEqual(ended);
  });

  it('throws when the disk is full at an update, and the task reads as it was stored before', () => {
    const task = store.insert(newTask('t-full0001'));
    // The file may grow no further: the next write that needs a page fails as a full disk does.
    const { page_count: pages } = db.prepare<[], { page_count: number }>('PRAGMA page_count').get() as { page_count: number };
    db.pragma(`max_page_count = ${pages}`);
    expect(() => store.update(task.id, { state: 'failed', reason: 'x'.repeat(64 * 1024) })).toThrow(/full/);
    expect(reopened().get(task.id)).toEqual(task);
  });

  it('refuses to update a task it does not hold', () => {
    expect(() => store.update('t-missing1', { state: 'running' })).toThrow(/No task with id t-missing1/);
    expect(store.get('t-missing1')).toBeUndefined();
  });

  it('reads the same tasks by every query', () => {
    const first = store.insert(newTask('t-read0001', { label: AWKWARD, createdAt: 1 }));
    const second = store.update(store.insert(newTask('t-read0002', { createdAt: 2 })).id, { state: 'running', startedAt: 3 });
    expect([...(store.newestFirst() ?? [])]).toEqual([second, first]);
    expect([...store.active()]).toEqual([second, first]);
    expect(store.inState('queued')).toEqual([first]);
    expect(store.oldestQueued()).toEqual(first);
    expect(store.count('running')).toBe(1);
  });

  it('ends the stranded tasks, and reads back the processes of only those whose pid is live', () => {
    const strand = (id: string, state: 'running' | 'cancelling', pid: number | null, pidStartTime: string | null) =>
      store.update(store.insert(newTask(id)).id, { state, startedAt: 5, pid, pidStartTime });
    strand('t-gone0001', 'running', 11, 'a');
    strand('t-live0001', 'running', 12, 'b');
    store.insert(newTask('t-queued01'));
    strand('t-live0002', 'cancelling', 13, 'c');
    strand('t-nopid001', 'running', null, null);
    const ended = store.endStranded(1_700_000_000_900, [12, 13, 99]);
    expect(ended).toMatchObject({ interrupted: 3, cancelled: 1, leftovers: [{ pid: 12, startTime: 'b' }, { pid: 13, startTime: 'c' }] });
    expect([...ended.tasks].map((task) => [task.id, task.state])).toEqual([
      ['t-gone0001', 'interrupted'],
      ['t-live0001', 'interrupted'],
      ['t-live0002', 'cancelled'],
      ['t-nopid001', 'interrupted'],
    ]);
    expect(store.endStranded(1_700_000_001_000, [12, 13])).toMatchObject({ interrupted: 0, cancelled: 0, leftovers: [] });
  });

  it('reads back the ended tasks of a span longer than one read, in seq order, skipping a read that holds none', () => {
    // Stranded tasks in the first and third reads of the span, none in the second; finished ones between.
    const strandedAt = new Set([0, 1, ENDED_RANGE - 1, 2 * ENDED_RANGE, 2 * ENDED_RANGE + 7, 2 * ENDED_RANGE + 9]);
    const expected: Task[] = [];
    db.transaction(() => {
      for (let i = 0; i <= 2 * ENDED_RANGE + 9; i++) {
        const task = store.insert(newTask(`t-span${String(i).padStart(4, '0')}`, { label: i === 1 ? AWKWARD : `job ${i}` }));
        const stranded = strandedAt.has(i);
        const state = i === 2 * ENDED_RANGE + 7 ? 'cancelling' : 'running';
        const stored = store.update(task.id, stranded ? { state, startedAt: 5, pid: i } : { state: 'succeeded', endedAt: 6, exitCode: 0 });
        if (stranded) expected.push(stored);
      }
    })();
    const ended = store.endStranded(1_700_000_000_900, []);
    expect(ended).toMatchObject({ interrupted: 5, cancelled: 1 });
    const tasks = [...ended.tasks];
    expect(tasks).toEqual(
      expected.map((task) =>
        task.state === 'running'
          ? { ...task, state: 'interrupted', reason: 'app-restart', endedAt: 1_700_000_000_900, seq: expect.any(Number) }
          : { ...task, state: 'cancelled', reason: 'cancelled; finished at restart', endedAt: 1_700_000_000_900, seq: expect.any(Number) },
      ),
    );
    expect(tasks.map((task) => store.get(task.id))).toEqual(tasks);
    expect(tasks.map((task) => task.seq)).toEqual([...tasks.map((task) => task.seq)].sort((a, b) => a - b));
  });

  it('hands on each ended task as the reconciliation stored it, while the store is written as they are announced', () => {
    const started = ['t-ann00001', 't-ann00002'].map((id) => store.update(store.insert(newTask(id)).id, { state: 'running', startedAt: 5 }));
    const ended = store.endStranded(1_700_000_000_900, []);
    const announced: Task[] = [];
    for (const task of ended.tasks) {
      // A listener of the announcement writes (an inbox post, a retry): reading on must not be in its way.
      store.insert(newTask(`t-retry${task.id.slice(-3)}`));
      announced.push(task);
    }
    expect(announced).toEqual(started.map((task) => ({ ...task, state: 'interrupted', reason: 'app-restart', endedAt: 1_700_000_000_900, seq: expect.any(Number) })));
    expect(announced.map((task) => reopened().get(task.id))).toEqual(announced);
    expect(announced.map((task) => task.seq)).toEqual([...announced.map((task) => task.seq)].sort((a, b) => a - b));
  });
});
