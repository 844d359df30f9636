import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** Unix socket paths are limited to ~107 bytes; long data dirs get a stable path in a private folder. */
const MAX_SOCKET_PATH = 100;

export function socketPathFor(dataDir: string): string {
  const inDataDir = path.join(dataDir, 'drover.sock');
  if (Buffer.byteLength(inDataDir) <= MAX_SOCKET_PATH) return inDataDir;
  const name = `drover-${createHash('sha256').update(path.resolve(dataDir)).digest('hex').slice(0, 16)}.sock`;
  const folders = runtimeFolders();
  for (const folder of folders) {
    const socketPath = path.join(folder, name);
    if (Buffer.byteLength(socketPath) <= MAX_SOCKET_PATH && isPrivateFolder(folder)) return socketPath;
  }
  throw new Error(
    `The data dir ${dataDir} is too long a path for Drover's socket, and none of ${folders.join(', ')} is a short folder only you can write to: ` +
      'use a shorter --data-dir, or set XDG_RUNTIME_DIR.',
  );
}

/**
 * Where a long data dir's socket may go: folders no other user can have made or written to
 * ($XDG_RUNTIME_DIR, made for this user by the system; the user's own cache folder). Never a fixed
 * name in the shared temp folder, which another user could make first to keep Drover from starting.
 */
function runtimeFolders(): string[] {
  const cacheHome = process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache');
  return [process.env.XDG_RUNTIME_DIR, path.join(cacheHome, 'drover', 'sockets')].filter((folder): folder is string => Boolean(folder));
}

/** The folder is (or is now made) this user's, and nobody else can write to it. */
function isPrivateFolder(folder: string): boolean {
  try {
    fs.mkdirSync(folder, { recursive: true, mode: 0o700 });
    const stat = fs.statSync(folder);
    return stat.isDirectory() && stat.uid === os.userInfo().uid && (stat.mode & 0o022) === 0;
  } catch {
    return false;
  }
}

/** Where Drover keeps its state when no data dir is given: the same folder Electron's userData uses. */
export function defaultDataDir(): string {
  const fromEnv = process.env.DROVER_DATA_DIR;
  if (fromEnv) return path.resolve(fromEnv);
  const configHome = process.env.XDG_CONFIG_HOME || path.join(os.homedir(), '.config');
  return path.join(configHome, 'Drover');
}
