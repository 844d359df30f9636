import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { fail } from '../errors';

export type SqliteDatabase = Database.Database;
export type Statement = Database.Statement;

/** Only the owner may read Drover's databases: they hold commands, output tails and messages. */
const PRIVATE_FILE = 0o600;
const PRIVATE_DIR = 0o700;
/** SQLite's companion files, created with the main file's mode. */
const COMPANIONS = ['-wal', '-shm', '-journal'] as const;

export interface OpenDatabaseOptions {
  /** Path to a better-sqlite3 binary built for the running ABI (Electron loads its own). */
  nativeBinding?: string;
  /** Ordered migrations; entry i moves the schema from user_version i to i + 1. */
  migrations: readonly string[];
  /** What the file holds, for error messages ("app database", "work state of project X"). */
  description: string;
  /**
   * Whether a missing or empty file may be created afresh (default true). When false, a missing or
   * empty file is reported as missing data (`data-missing`) and nothing is written.
   */
  create?: boolean;
  /** What the person can do when the file is missing or empty (create: false). */
  whenMissing?: string;
}

/** The file's size, or null when it does not exist. */
function sizeOf(file: string): number | null {
  try {
    return fs.statSync(file).size;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

function connect(file: string, options: OpenDatabaseOptions): SqliteDatabase {
  const db = new Database(file, options.nativeBinding ? { nativeBinding: options.nativeBinding } : {});
  try {
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.pragma('foreign_keys = ON');
    db.pragma('busy_timeout = 5000');
    migrate(db, options.migrations, options.description);
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}

/**
 * A new database is built under a temporary name and renamed into place once migrated, so a file
 * at the real path is never a half-made database: a missing or empty one there is lost data. A
 * journal left by a file that is gone would be replayed into the new one: it is moved aside.
 */
function createAtomically(file: string, options: OpenDatabaseOptions): void {
  for (const suffix of COMPANIONS) {
    const companion = file + suffix;
    if (sizeOf(companion) !== null) fs.renameSync(companion, `${companion}.orphaned-${Date.now()}`);
  }
  const building = `${file}.creating-${process.pid}`;
  fs.rmSync(building, { force: true });
  fs.writeFileSync(building, '', { mode: PRIVATE_FILE });
  connect(building, options).close();
  fs.renameSync(building, file);
}

/**
 * Opens a SQLite file the way every Drover store wants it: owner-only, WAL, foreign keys, a busy
 * timeout, and the schema migrated to the latest version in one transaction. A damaged or foreign
 * file is reported clearly, naming it, and left untouched; so is a missing or empty one unless
 * `create` allows making it.
 */
export function openDatabase(file: string, options: OpenDatabaseOptions): SqliteDatabase {
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: PRIVATE_DIR });
  const size = sizeOf(file);
  if (size === null || size === 0) {
    if (options.create === false) {
      fail(
        'data-missing',
        `The ${options.description} at ${file} is ${size === null ? 'missing' : 'empty (0 bytes)'}. Drover did not recreate it` +
          `${size === 0 ? ' and left the file as it is' : ''}: ${options.whenMissing ?? 'restore it from a backup.'}`,
      );
    }
    createAtomically(file, options);
  }
  for (const suffix of ['', ...COMPANIONS]) {
    if (sizeOf(file + suffix) !== null) fs.chmodSync(file + suffix, PRIVATE_FILE);
  }
  try {
    return connect(file, options);
  } catch (error) {
    const code = (error as { code?: string }).code ?? '';
    if (code === 'SQLITE_NOTADB' || code.startsWith('SQLITE_CORRUPT')) fail('storage-unavailable', damagedMessage(options.description, file, code));
    throw error;
  }
}

export function damagedMessage(description: string, file: string, code: string): string {
  return (
    `The ${description} at ${file} is damaged or not a SQLite database (${code}). ` +
    'Drover left it untouched; move it aside to start afresh, or restore it from a backup.'
  );
}

/** A database as opened, for naming it when SQLite later reports damage without saying where. */
export interface OpenedDatabase {
  db: SqliteDatabase;
  file: string;
  description: string;
}

/** The first of these databases that fails SQLite's own quick check (it reads every page). */
export function findDamaged(databases: readonly OpenedDatabase[]): OpenedDatabase | undefined {
  return databases.find(({ db }) => {
    try {
      return db.pragma('quick_check(1)', { simple: true }) !== 'ok';
    } catch {
      return true;
    }
  });
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
