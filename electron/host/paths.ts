import { createHash } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';

/** Unix socket paths are limited to ~107 bytes; long data dirs get a stable path in the temp dir. */
const MAX_SOCKET_PATH = 100;

export function socketPathFor(dataDir: string): string {
  const inDataDir = path.join(dataDir, 'drover.sock');
  if (Buffer.byteLength(inDataDir) <= MAX_SOCKET_PATH) return inDataDir;
  const digest = createHash('sha256').update(path.resolve(dataDir)).digest('hex').slice(0, 16);
  return path.join(os.tmpdir(), `drover-${digest}.sock`);
}

/** Where Drover keeps its state when no data dir is given: the same folder Electron's userData uses. */
export function defaultDataDir(): string {
  const fromEnv = process.env.DROVER_DATA_DIR;
  if (fromEnv) return path.resolve(fromEnv);
  const configHome = process.env.XDG_CONFIG_HOME || path.join(os.homedir(), '.config');
  return path.join(configHome, 'Drover');
}
