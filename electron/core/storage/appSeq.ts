import type { SqliteDatabase } from './sqlite';

/**
 * The app-wide seq in `app_meta`: changes to the project registry and to the app settings are
 * ordered across the app (per-project entities have their own seq in each project database).
 */
export class AppSeq {
  private readonly statements;

  constructor(db: SqliteDatabase) {
    this.statements = {
      current: db.prepare<[], { value: number }>("SELECT value FROM app_meta WHERE key = 'seq'"),
      bump: db.prepare<[], { value: number }>("UPDATE app_meta SET value = value + 1 WHERE key = 'seq' RETURNING value"),
    };
  }

  current(): number {
    return this.statements.current.get()?.value ?? 0;
  }

  next(): number {
    // all(), not get(): better-sqlite3's get() ignores the error of the reset after its first row,
    // where an autocommit that meets a full disk fails.
    const [row] = this.statements.bump.all();
    if (!row) throw new Error('app_meta has no seq row');
    return row.value;
  }
}
