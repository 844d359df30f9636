import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { fail } from '../errors';

export type SqliteDatabase = Database.Database;
export type Statement = Database.Statement;

export interface OpenDatabaseOptions {
  /** Path to a better-sqlite3 binary built for the running ABI (Electron loads its own). */
  nativeBinding?: string;
  /** Ordered migrations; entry i moves the schema from user_version i to i + 1. */
  migrations: readonly string[];
  /** What the file holds, for error messages ("app database", "work state of project X"). */
  description: string;
}

/**
 * Opens a SQLite file the way every Drover store wants it: WAL, foreign keys, a busy timeout, and
 * the schema migrated to the latest version in one transaction. A damaged or foreign file is
 * reported clearly and left untouched.
 */
export function openDatabase(file: string, options: OpenDatabaseOptions): SqliteDatabase {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  let db: SqliteDatabase | undefined;
  try {
    db = new Database(file, options.nativeBinding ? { nativeBinding: options.nativeBinding } : {});
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.pragma('foreign_keys = ON');
    db.pragma('busy_timeout = 5000');
    migrate(db, options.migrations, options.description);
    return db;
  } catch (error) {
    db?.close();
    const code = (error as { code?: string }).code ?? '';
    if (code === 'SQLITE_NOTADB' || code.startsWith('SQLITE_CORRUPT')) {
      fail(
        'storage-unavailable',
        `The ${options.description} at ${file} is damaged or not a SQLite database (${code}). ` +
          'Drover left it untouched; move it aside to start afresh, or restore it from a backup.',
      );
    }
    throw error;
  }
}

function migrate(db: SqliteDatabase, migrations: readonly string[], description: string): void {
  const current = db.pragma('user_version', { simple: true }) as number;
  if (current > migrations.length) {
    fail(
      'storage-unavailable',
      `The ${description} was written by a newer Drover (schema ${current}, this build knows ${migrations.length}).`,
    );
  }
  if (current === migrations.length) return;
  db.transaction(() => {
    for (let version = current; version < migrations.length; version++) db.exec(migrations[version] as string);
    db.pragma(`user_version = ${migrations.length}`);
  })();
}
