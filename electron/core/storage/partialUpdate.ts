import type { SqliteDatabase, Statement } from './sqlite';

/**
 * UPDATEs that set only the fields a change names (and the row's seq), with one prepared statement
 * per combination of fields, reused.
 */
export class PartialUpdate<Change extends object> {
  private readonly statements = new Map<string, Statement>();

  constructor(
    private readonly db: SqliteDatabase,
    private readonly table: string,
    private readonly columns: Record<keyof Change, string>,
  ) {}

  run(id: string, change: Change, seq: number): void {
    const keys = Object.keys(change) as (keyof Change & string)[];
    const signature = keys.join(',');
    let statement = this.statements.get(signature);
    if (!statement) {
      const assignments = keys.map((key) => `${this.columns[key]} = @${key}`);
      statement = this.db.prepare(`UPDATE ${this.table} SET ${[...assignments, 'seq = @seq'].join(', ')} WHERE id = @id`);
      this.statements.set(signature, statement);
    }
    statement.run({ ...change, seq, id });
  }
}
