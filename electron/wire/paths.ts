import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** Unix socket paths are limited to ~107 bytes; long data dirs get a stable path in the temp dir. */
const MAX_SOCKET_PATH = 100;

export function socketPathFor(dataDir: string): string {
  const inDataDir = path.join(dataDir, 'drover.sock');
  if (Buffer.byteLength(inDataDir) <= MAX_SOCKET_PATH) return inDataDir;
  const digest = createHash('sha256').update(path.resolve(dataDir)).digest('hex').slice(0, 16);
  return path.join(privateRuntimeDir(), `drover-${digest}.sock`);
}

/** $XDG_RUNTIME_DIR, or a folder of our own in the temp dir that no other user can write to. */
function privateRuntimeDir(): string {
  if (process.env.XDG_RUNTIME_DIR) return process.env.XDG_RUNTIME_DIR;
  const dir = path.join(os.tmpdir(), `drover-${os.userInfo().uid}`);
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const stat = fs.lstatSync(dir);
  if (!stat.isDirectory() || stat.uid !== os.userInfo().uid || (stat.mode & 0o077) !== 0) {
    throw new Error(`${dir} is not a private folder of this user; remove it or set XDG_RUNTIME_DIR.`);
  }
  return dir;
}

/** Where Drover keeps its state when no data dir is given: the same folder Electron's userData uses. */
export function defaultDataDir(): string {
  const fromEnv = process.env.DROVER_DATA_DIR;
  if (fromEnv) return path.resolve(fromEnv);
  const configHome = process.env.XDG_CONFIG_HOME || path.join(os.homedir(), '.config');
  return path.join(configHome, 'Drover');
}
