import type { SqliteDatabase, Statement } from './sqlite';

/**
 * UPDATEs that set only the fields a change names (and the row's seq), with one prepared statement
 * per combination of fields, reused. Given `returning` (an SQL expression over the row), each
 * update also reads the row as now stored, in the same statement.
 */
export class PartialUpdate<Change extends object> {
  private readonly statements = new Map<string, Statement>();

  constructor(
    private readonly db: SqliteDatabase,
    private readonly table: string,
    private readonly columns: Record<keyof Change, string>,
    private readonly returning?: string,
  ) {}

  /** Returns what `returning` reads of the changed row: undefined when no row has the id, or without `returning`. */
  run(id: string, change: Change, seq: number): unknown {
    const keys = Object.keys(change) as (keyof Change & string)[];
    const signature = keys.join(',');
    let statement = this.statements.get(signature);
    if (!statement) {
      const assignments = keys.map((key) => `${this.columns[key]} = ?`);
      const sql = `UPDATE ${this.table} SET ${[...assignments, 'seq = ?'].join(', ')} WHERE id = ?`;
      statement = this.returning === undefined ? this.db.prepare(sql) : this.db.prepare(`${sql} RETURNING ${this.returning}`).pluck();
      this.statements.set(signature, statement);
    }
    // Bound by position, in the keys' order: spreading the change into named parameters, each then
    // looked up by name, cost about a sixth of a task's state write.
    const params: unknown[] = Object.values(change);
    params.push(seq, id);
    // all(), not get(): better-sqlite3's get() ignores the error of the reset after its first row,
    // where an autocommit that meets a full disk fails; the row returned would claim a write that
    // never landed (and the task queue, reading the task still queued, started it again forever).
    if (this.returning !== undefined) return statement.all(params)[0];
    statement.run(params);
    return undefined;
  }
}
