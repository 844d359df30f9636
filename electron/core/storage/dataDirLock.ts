import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';

/** The file whose lock is the data dir's: whoever holds it is the one host of that data dir. */
export const LOCK_FILE = 'host.lock';

export interface DataDirLock {
  release(): void;
}

/**
 * Takes the data dir's lock for as long as this process holds it: an exclusive SQLite lock on
 * `host.lock`, which is a lock of the kernel's (fcntl), so it goes with the process however it
 * ends (a crash, SIGKILL, a reboot) and two hosts racing for it cannot both win. Returns null when
 * another process holds it.
 */
export function lockDataDir(dataDir: string, nativeBinding?: string): DataDirLock | null {
  const file = path.join(dataDir, LOCK_FILE);
  fs.closeSync(fs.openSync(file, 'a', 0o600));
  const db = new Database(file, { timeout: 0, ...(nativeBinding ? { nativeBinding } : {}) });
  try {
    db.pragma('locking_mode = EXCLUSIVE');
    // The first write takes the exclusive lock, which locking_mode EXCLUSIVE keeps until close.
    db.exec('BEGIN EXCLUSIVE; COMMIT;');
  } catch (error) {
    db.close();
    if ((error as { code?: unknown }).code === 'SQLITE_BUSY') return null;
    throw error;
  }
  return { release: () => db.close() };
}
