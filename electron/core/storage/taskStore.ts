import { ACTIVE_TASK_STATES, type Task, type TaskState } from '../../../shared/entities/tasks';
import type { SeqCounter } from './seqCounter';
import { PartialUpdate } from './partialUpdate';
import type { SqliteDatabase } from './sqlite';

/** A task row as read: its JSON array, in TASK_COLUMNS order. */
type TaskValues = [
  id: string,
  ownerAgentId: string | null,
  label: string | null,
  command: string,
  cwd: string,
  state: TaskState,
  exitCode: number | null,
  signal: string | null,
  reason: string | null,
  attempt: number,
  retryOf: string | null,
  createdAt: number,
  startedAt: number | null,
  endedAt: number | null,
  pid: number | null,
  pidStartTime: string | null,
  logPath: string,
  outputBytes: number,
  seq: number,
];

const TASK_COLUMNS = [
  'id', 'owner_agent_id', 'label', 'command', 'cwd', 'state', 'exit_code', 'signal', 'reason', 'attempt', 'retry_of',
  'created_at', 'started_at', 'ended_at', 'pid', 'pid_start_time', 'log_path', 'output_bytes', 'seq',
] as const satisfies { length: TaskValues['length'] };
type TaskColumn = (typeof TASK_COLUMNS)[number];
/** Where a row's values hold its seq (last, in TaskValues as in TASK_COLUMNS). */
const SEQ_INDEX = 18;

/**
 * Every read takes each row as one JSON array: better-sqlite3 crosses into V8 once per value (19 per
 * row), which made reading 100,000 tasks back cost more than the UPDATE that ended them, while
 * V8's JSON.parse builds the same values from one string per row several times faster.
 */
const TASK_ROW = `json_array(${TASK_COLUMNS.join(', ')})`;
const SELECT_TASKS = `SELECT ${TASK_ROW} FROM tasks`;

/** The rows of one endStranded: its UPDATE stamped each with `base` + its rowid. */
interface StrandedSpan {
  first: number;
  last: number;
  base: number;
}

/**
 * How many rowids of the stranded span one read of the ended rows covers. Each range comes as one
 * JSON array of rows: 100,000 ended rows are then a hundred steps, strings and JSON.parse calls
 * instead of 100,000 each, which cut reading and parsing them by about a fifth (470 to 380 ms CPU),
 * while only one range's tasks are parsed at a time.
 */
export const ENDED_RANGE = 1000;

/** A process a stranded task ran, as recorded when it started. */
export interface LeftoverProcess {
  pid: number;
  startTime: string | null;
}

export interface EndedStranded {
  /** How many were running (now interrupted) and how many were cancelling (now cancelled). */
  interrupted: number;
  cancelled: number;
  /** The processes of ended tasks whose pid was live: they may still be those tasks' own. */
  leftovers: LeftoverProcess[];
  /** The ended tasks as now stored, in seq order; each range of them is parsed when iterated. */
  tasks: Iterable<Task>;
}

export type NewTask = Pick<Task, 'id' | 'ownerAgentId' | 'label' | 'command' | 'cwd' | 'attempt' | 'retryOf' | 'createdAt' | 'logPath'>;

/** The fields a state change may set; everything else about a task is fixed at creation. */
export type TaskChange = Partial<
  Pick<Task, 'state' | 'exitCode' | 'signal' | 'reason' | 'startedAt' | 'endedAt' | 'pid' | 'pidStartTime' | 'outputBytes'>
>;

const CHANGE_COLUMNS: Record<keyof TaskChange, TaskColumn> = {
  state: 'state',
  exitCode: 'exit_code',
  signal: 'signal',
  reason: 'reason',
  startedAt: 'started_at',
  endedAt: 'ended_at',
  pid: 'pid',
  pidStartTime: 'pid_start_time',
  outputBytes: 'output_bytes',
};

/**
 * The tasks table of one project's work-state database, and the project's `seq` counter: every
 * write stamps the row with the next seq, so the counter survives restarts as max(seq).
 */
export class TaskStore {
  private readonly statements;
  private readonly partialUpdate: PartialUpdate<TaskChange>;

  constructor(
    readonly db: SqliteDatabase,
    readonly projectId: string,
    private readonly seq: SeqCounter,
  ) {
    this.partialUpdate = new PartialUpdate(db, 'tasks', CHANGE_COLUMNS, TASK_ROW);
    this.statements = {
      byId: db.prepare<[string], string>(`${SELECT_TASKS} WHERE id = ?`).pluck(),
      // Rowid order is creation order, and walking the table's own b-tree needs no sort.
      newestFirst: db
        .prepare<[{ before: number; states: string | null }], string>(
          `${SELECT_TASKS} WHERE rowid < @before AND (@states IS NULL OR state IN (SELECT value FROM json_each(@states))) ORDER BY rowid DESC`,
        )
        .pluck(),
      rowidOf: db.prepare<[string], number>('SELECT rowid FROM tasks WHERE id = ?').pluck(),
      inState: db.prepare<[string], string>(`${SELECT_TASKS} WHERE state = ? ORDER BY created_at, rowid`).pluck(),
      oldestQueued: db.prepare<[], string>(`${SELECT_TASKS} WHERE state = 'queued' ORDER BY created_at, rowid LIMIT 1`).pluck(),
      // seq = base + rowid: unique and increasing without ranking rows; gaps in seq are harmless.
      endStranded: db.prepare(
        `UPDATE tasks SET
           state = CASE state WHEN 'running' THEN 'interrupted' ELSE 'cancelled' END,
           reason = CASE state WHEN 'running' THEN 'app-restart' ELSE coalesce(reason, 'cancelled; finished at restart') END,
           ended_at = @endedAt,
           seq = @base + rowid
         WHERE state IN ('running', 'cancelling')`,
      ),
      // Through the state index alone: how many are stranded and where they lie, so the reads after
      // the UPDATE scan only that span.
      stranded: db.prepare<[], { running: number; cancelling: number; first: number | null; last: number | null }>(
        `SELECT count(*) FILTER (WHERE state = 'running') AS running, count(*) FILTER (WHERE state = 'cancelling') AS cancelling,
                min(rowid) AS first, max(rowid) AS last
         FROM tasks WHERE state IN ('running', 'cancelling')`,
      ),
      // A row the UPDATE ended is the one stamped base + rowid. Null when the range holds none.
      endedInRange: db
        .prepare<[StrandedSpan], string | null>(
          `SELECT '[' || group_concat(${TASK_ROW}, ',') || ']' FROM tasks WHERE rowid BETWEEN @first AND @last AND seq = @base + rowid`,
        )
        .pluck(),
      // The pids are few (the live processes), the ended rows may be many: only theirs are read.
      endedWithPidIn: db.prepare<[StrandedSpan & { pids: string }], LeftoverProcess>(
        `SELECT pid, pid_start_time AS startTime FROM tasks
         WHERE rowid BETWEEN @first AND @last AND seq = @base + rowid AND pid IN (SELECT value FROM json_each(@pids))`,
      ),
      countInState: db.prepare<[string], { n: number }>('SELECT count(*) AS n FROM tasks WHERE state = ?'),
      // Every column from the task as returned, so what insert returns is what is stored.
      insert: db.prepare<[Task]>(
        `INSERT INTO tasks (${TASK_COLUMNS.join(', ')})
         VALUES (@id, @ownerAgentId, @label, @command, @cwd, @state, @exitCode, @signal, @reason, @attempt, @retryOf,
                 @createdAt, @startedAt, @endedAt, @pid, @pidStartTime, @logPath, @outputBytes, @seq)`,
      ),
    };
  }

  get(taskId: string): Task | undefined {
    const row = this.statements.byId.get(taskId);
    return row === undefined ? undefined : this.toTask(row);
  }

  /**
   * Tasks newest first, read lazily (a page of a huge list reads only its rows), from just after
   * the task `after` when given. Returns undefined when `after` names no task of this project.
   */
  newestFirst(options: { after?: string | undefined; states?: readonly TaskState[] | undefined } = {}): Iterable<Task> | undefined {
    const before = options.after === undefined ? Number.MAX_SAFE_INTEGER : this.statements.rowidOf.get(options.after);
    if (before === undefined) return undefined;
    const { newestFirst } = this.statements;
    const params = { before, states: options.states ? JSON.stringify(options.states) : null };
    const toTask = (row: string) => this.toTask(row);
    // The query starts on the first read, and stopping early (a full page) ends it.
    return (function* () {
      for (const row of newestFirst.iterate(params)) yield toTask(row);
    })();
  }

  /** The tasks queued, running or stopping, newest first. */
  active(): Iterable<Task> {
    return this.newestFirst({ states: ACTIVE_TASK_STATES }) ?? [];
  }

  inState(state: TaskState): Task[] {
    return this.statements.inState.all(state).map((row) => this.toTask(row));
  }

  /**
   * Ends every stranded task in one statement, so reconciling a large store stays fast. The ended
   * tasks are read back as stored, in seq order, but each range of them is parsed only as it is
   * iterated: a caller that announces them one by one never holds them all (building 100,000 at once
   * cost more in garbage collection than the UPDATE). Of the processes they ran, only those whose pid is in
   * `livePids` are read.
   */
  endStranded(endedAt: number, livePids: Iterable<number>): EndedStranded {
    const base = this.seq.current;
    const ended = this.db.transaction(() => {
      const { running, cancelling, first, last } = this.statements.stranded.get() ?? { running: 0, cancelling: 0, first: null, last: null };
      if (first === null || last === null) return undefined;
      this.statements.endStranded.run({ base, endedAt });
      const ranges: string[] = [];
      for (let from = first; from <= last; from += ENDED_RANGE) {
        const range = this.statements.endedInRange.get({ first: from, last: Math.min(from + ENDED_RANGE - 1, last), base });
        if (range) ranges.push(range);
      }
      const leftovers = this.statements.endedWithPidIn.all({ first, last, base, pids: JSON.stringify([...livePids]) });
      return { interrupted: running, cancelled: cancelling, leftovers, ranges, lastSeq: base + last };
    })();
    if (!ended) return { interrupted: 0, cancelled: 0, leftovers: [], tasks: [] };
    const { ranges, lastSeq, ...counts } = ended;
    this.seq.advanceTo(lastSeq);
    const toTask = (values: TaskValues) => this.fromValues(values);
    return {
      ...counts,
      tasks: {
        *[Symbol.iterator]() {
          for (const range of ranges) {
            // group_concat promises no order: sorting by seq (one pass when the scan kept rowid order) does.
            const rows = (JSON.parse(range) as TaskValues[]).sort((a, b) => a[SEQ_INDEX] - b[SEQ_INDEX]);
            for (const values of rows) yield toTask(values);
          }
        },
      },
    };
  }

  count(state: TaskState): number {
    return this.statements.countInState.get(state)?.n ?? 0;
  }

  oldestQueued(): Task | undefined {
    const row = this.statements.oldestQueued.get();
    return row === undefined ? undefined : this.toTask(row);
  }

  insert(task: NewTask): Task {
    const created: Task = {
      id: task.id,
      projectId: this.projectId,
      ownerAgentId: task.ownerAgentId,
      label: task.label,
      command: task.command,
      cwd: task.cwd,
      state: 'queued',
      exitCode: null,
      signal: null,
      reason: null,
      attempt: task.attempt,
      retryOf: task.retryOf,
      createdAt: task.createdAt,
      startedAt: null,
      endedAt: null,
      pid: null,
      pidStartTime: null,
      logPath: task.logPath,
      outputBytes: 0,
      seq: this.seq.next(),
    };
    this.statements.insert.run(created);
    return created;
  }

  /** Writes `change` to a task; returns the task as now stored, read by the UPDATE itself. */
  update(taskId: string, change: TaskChange): Task {
    const row = this.partialUpdate.run(taskId, change, this.seq.next()) as string | undefined;
    if (row === undefined) throw new Error(`No task with id ${taskId} in project ${this.projectId}`);
    return this.toTask(row);
  }

  private toTask(row: string): Task {
    return this.fromValues(JSON.parse(row) as TaskValues);
  }

  private fromValues(values: TaskValues): Task {
    const [id, ownerAgentId, label, command, cwd, state, exitCode, signal, reason, attempt, retryOf, createdAt, startedAt, endedAt, pid, pidStartTime, logPath, outputBytes, seq] = values;
    return {
      id,
      projectId: this.projectId,
      ownerAgentId,
      label,
      command,
      cwd,
      state,
      exitCode,
      signal,
      reason,
      attempt,
      retryOf,
      createdAt,
      startedAt,
      endedAt,
      pid,
      pidStartTime,
      logPath,
      outputBytes,
      seq,
    };
  }
}
