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
 * The data dir holds task output, scrollback and messages, which may hold secrets: on every start
 * it is made owner-only (0700), and so is everything in it (files 0600), whatever mode an older
 * Drover or a person left. What was changed is logged.
 */
export function enforcePrivateDataDir(dataDir: string, log: (line: string) => void): void {
  fs.mkdirSync(dataDir, { recursive: true, mode: PRIVATE_DIR });
  const stat = fs.statSync(dataDir);
  if ((stat.mode & OTHERS) !== 0) {
    fs.chmodSync(dataDir, PRIVATE_DIR);
    log(`the data dir ${dataDir} was open to other users (mode ${octal(stat.mode)}); it is now 0700`);
  }
  const changed = privatizeTree(dataDir);
  if (changed > 0) log(`${changed} files and folders in the data dir were readable by other users; they are now owner-only (0600 / 0700)`);
}
