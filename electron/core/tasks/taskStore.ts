import type { Task, TaskState } from '../../../shared/entities';
import type { SeqCounter } from '../storage/seqCounter';
import { PartialUpdate } from '../storage/partialUpdate';
import type { SqliteDatabase } from '../storage/sqlite';

interface TaskRow {
  id: string;
  owner_agent_id: string | null;
  label: string | null;
  command: string;
  cwd: string;
  state: TaskState;
  exit_code: number | null;
  signal: string | null;
  reason: string | null;
  attempt: number;
  retry_of: string | null;
  created_at: number;
  started_at: number | null;
  ended_at: number | null;
  pid: number | null;
  pid_start_time: string | null;
  log_path: string;
  output_bytes: number;
  seq: number;
}

const TASK_COLUMNS = [
  'id', 'owner_agent_id', 'label', 'command', 'cwd', 'state', 'exit_code', 'signal', 'reason', 'attempt', 'retry_of',
  'created_at', 'started_at', 'ended_at', 'pid', 'pid_start_time', 'log_path', 'output_bytes', 'seq',
] as const satisfies readonly (keyof TaskRow)[];

/** Raw mode skips better-sqlite3's per-row object building, which dominates bulk reads. */
function rowFromColumns(values: unknown[]): TaskRow {
  const row: Record<string, unknown> = {};
  TASK_COLUMNS.forEach((column, i) => (row[column] = values[i]));
  return row as unknown as TaskRow;
}

export type NewTask = Pick<Task, 'id' | 'ownerAgentId' | 'label' | 'command' | 'cwd' | 'attempt' | 'retryOf' | 'createdAt' | 'logPath'>;

/** The fields a state change may set; everything else about a task is fixed at creation. */
export type TaskChange = Partial<
  Pick<Task, 'state' | 'exitCode' | 'signal' | 'reason' | 'startedAt' | 'endedAt' | 'pid' | 'pidStartTime' | 'outputBytes'>
>;

const CHANGE_COLUMNS: Record<keyof TaskChange, keyof TaskRow> = {
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
    this.partialUpdate = new PartialUpdate(db, 'tasks', CHANGE_COLUMNS);
    this.statements = {
      byId: db.prepare<[string], TaskRow>('SELECT * FROM tasks WHERE id = ?'),
      all: db.prepare<[], TaskRow>('SELECT * FROM tasks ORDER BY created_at DESC, rowid DESC'),
      inState: db.prepare<[string], TaskRow>('SELECT * FROM tasks WHERE state = ? ORDER BY created_at, rowid'),
      oldestQueued: db.prepare<[], TaskRow>("SELECT * FROM tasks WHERE state = 'queued' ORDER BY created_at, rowid LIMIT 1"),
      // seq = base + rowid: unique and increasing without ranking rows; gaps in seq are harmless.
      endStranded: db
        .prepare(
          `UPDATE tasks SET
             state = CASE state WHEN 'running' THEN 'interrupted' ELSE 'cancelled' END,
             reason = CASE state WHEN 'running' THEN 'app-restart' ELSE coalesce(reason, 'cancelled; finished at restart') END,
             ended_at = @endedAt,
             seq = @base + rowid
           WHERE state IN ('running', 'cancelling')
           RETURNING ${TASK_COLUMNS.join(', ')}`,
        )
        .raw(),
      countInState: db.prepare<[string], { n: number }>('SELECT count(*) AS n FROM tasks WHERE state = ?'),
      insert: db.prepare(
        `INSERT INTO tasks (id, owner_agent_id, label, command, cwd, state, attempt, retry_of, created_at, log_path, seq)
         VALUES (@id, @ownerAgentId, @label, @command, @cwd, 'queued', @attempt, @retryOf, @createdAt, @logPath, @seq)`,
      ),
    };
  }

  get(taskId: string): Task | undefined {
    const row = this.statements.byId.get(taskId);
    return row && this.toTask(row);
  }

  list(states?: readonly TaskState[]): Task[] {
    const rows = this.statements.all.all();
    const wanted = states && new Set(states);
    return rows.filter((row) => !wanted || wanted.has(row.state)).map((row) => this.toTask(row));
  }

  inState(state: TaskState): Task[] {
    return this.statements.inState.all(state).map((row) => this.toTask(row));
  }

  /**
   * Ends every stranded task in one statement, so reconciling a large store stays fast; returns
   * them as now stored, in seq order.
   */
  endStranded(endedAt: number): Task[] {
    const tasks = (this.statements.endStranded.all({ base: this.seq.current, endedAt }) as unknown[][]).map((values) =>
      this.toTask(rowFromColumns(values)),
    );
    tasks.sort((a, b) => a.seq - b.seq);
    this.seq.advanceTo(tasks.at(-1)?.seq ?? 0);
    return tasks;
  }

  count(state: TaskState): number {
    return this.statements.countInState.get(state)?.n ?? 0;
  }

  oldestQueued(): Task | undefined {
    const row = this.statements.oldestQueued.get();
    return row && this.toTask(row);
  }

  insert(task: NewTask): Task {
    this.statements.insert.run({ ...task, seq: this.seq.next() });
    return this.get(task.id) as Task;
  }

  update(taskId: string, change: TaskChange): Task {
    const current = this.get(taskId);
    if (!current) throw new Error(`No task with id ${taskId} in project ${this.projectId}`);
    return this.apply(current, change);
  }

  /** Writes `change` to a task the caller has just read; returns the task as now stored. */
  apply(current: Task, change: TaskChange): Task {
    const seq = this.seq.next();
    this.partialUpdate.run(current.id, change, seq);
    return { ...current, ...change, seq };
  }

  private toTask(row: TaskRow): Task {
    return {
      id: row.id,
      projectId: this.projectId,
      ownerAgentId: row.owner_agent_id,
      label: row.label,
      command: row.command,
      cwd: row.cwd,
      state: row.state,
      exitCode: row.exit_code,
      signal: row.signal,
      reason: row.reason,
      attempt: row.attempt,
      retryOf: row.retry_of,
      createdAt: row.created_at,
      startedAt: row.started_at,
      endedAt: row.ended_at,
      pid: row.pid,
      pidStartTime: row.pid_start_time,
      logPath: row.log_path,
      outputBytes: row.output_bytes,
      seq: row.seq,
    };
  }
}
