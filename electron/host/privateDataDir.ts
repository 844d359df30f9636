import fs from 'node:fs';
import path from 'node:path';

const PRIVATE_DIR = 0o700;
const PRIVATE_FILE = 0o600;
const OTHERS = 0o077;

const octal = (mode: number) => `0${(mode & 0o777).toString(8)}`;

/** Owner-only, keeping the owner's execute bit (the `drover` shim must stay runnable). */
function privateModeOf(stat: fs.Stats): number {
  if (stat.isDirectory()) return PRIVATE_DIR;
  return stat.mode & 0o100 ? PRIVATE_DIR : PRIVATE_FILE;
}

/** Chmods what others can reach below `dir`; returns how many entries it changed. Symlinks are left alone. */
function privatizeTree(dir: string): number {
  let changed = 0;
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return 0;
  }
  for (const entry of entries) {
    if (entry.isSymbolicLink()) continue;
    const file = path.join(dir, entry.name);
    try {
      const stat = fs.lstatSync(file);
      if ((stat.mode & OTHERS) !== 0) {
        fs.chmodSync(file, privateModeOf(stat));
        changed++;
      }
      if (stat.isDirectory()) changed += privatizeTree(file);
    } catch {
      // Gone meanwhile, or not ours to change: the folder's own mode still keeps others out.
    }
  }
  return changed;
}

/**
 * Written once everything in the data dir was found owner-only. Drover writes every file 0600 from
 * then on, so later starts need not walk a data dir of many thousand logs again.
 */
export const MODES_CHECKED_FILE = 'private-modes-checked';

/**
 * The data dir holds task output, scrollback and messages, which may hold secrets: on every start
 * it is made owner-only (0700), and everything in it too (files 0600) whatever mode an older Drover
 * or a person left: the first time, and whenever the data dir itself was found open. What was
 * changed is logged.
 */
export function enforcePrivateDataDir(dataDir: string, log: (line: string) => void): void {
  try {
    makePrivate(dataDir, log);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'EROFS' && code !== 'EACCES' && code !== 'EPERM') throw error;
    throw new Error(
      `Drover cannot write to its data dir ${dataDir} (${code === 'EROFS' ? 'a read-only file system' : 'permission denied'}). ` +
        'It keeps its databases, logs and socket there: give it a folder you can write to (--data-dir or DROVER_DATA_DIR).',
      { cause: error },
    );
  }
}

function makePrivate(dataDir: string, log: (line: string) => void): void {
  fs.mkdirSync(dataDir, { recursive: true, mode: PRIVATE_DIR });
  const stat = fs.statSync(dataDir);
  const uid = process.getuid?.();
  if (uid !== undefined && stat.uid !== uid) {
    throw new Error(`The data dir ${dataDir} belongs to another user (uid ${stat.uid}): Drover uses only a data dir of its own user's.`);
  }
  fs.accessSync(dataDir, fs.constants.W_OK);
  const wasOpen = (stat.mode & OTHERS) !== 0;
  if (wasOpen) {
    fs.chmodSync(dataDir, PRIVATE_DIR);
    log(`the data dir ${dataDir} was open to other users (mode ${octal(stat.mode)}); it is now 0700`);
  }
  const marker = path.join(dataDir, MODES_CHECKED_FILE);
  if (!wasOpen && fs.existsSync(marker)) return;
  const changed = privatizeTree(dataDir);
  if (changed > 0) log(`${changed} files and folders in the data dir were readable by other users; they are now owner-only (0600 / 0700)`);
  fs.writeFileSync(marker, '1\n', { mode: PRIVATE_FILE });
}
