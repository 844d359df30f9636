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

const ownUid = (): number | undefined => process.getuid?.();

interface Walked {
  /** Entries whose mode let others in, made owner-only. */
  tightened: number;
  /** Files and links another user had put there, removed. */
  removed: string[];
  /** Folders another user had made there, which this user cannot empty. */
  foreignFolders: string[];
}

/**
 * Makes everything below `dir` this user's alone: what others can reach is chmodded; a file or link
 * another user put there (while the folder was open) is removed, as Drover would otherwise read it
 * as its own (a planted `browser-token` would be served as the page's token); a folder another user
 * made is reported. A symlink of this user's own is left as it is.
 */
function privatizeTree(dir: string, walked: Walked): void {
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return;
  }
  const uid = ownUid();
  for (const entry of entries) {
    const file = path.join(dir, entry.name);
    try {
      const stat = fs.lstatSync(file);
      if (uid !== undefined && stat.uid !== uid) {
        if (stat.isDirectory()) walked.foreignFolders.push(file);
        else {
          fs.rmSync(file, { force: true });
          walked.removed.push(`${file} (uid ${stat.uid})`);
        }
        continue;
      }
      if (stat.isSymbolicLink()) continue;
      if ((stat.mode & OTHERS) !== 0) {
        fs.chmodSync(file, privateModeOf(stat));
        walked.tightened++;
      }
      if (stat.isDirectory()) privatizeTree(file, walked);
    } catch {
      // Gone meanwhile: the folder's own mode still keeps others out.
    }
  }
}

/** Refuses a data dir of another user's before anything in it is opened (a log, a token, the lock). */
export function assertOwnDataDir(dataDir: string): void {
  const uid = ownUid();
  let owner: number;
  try {
    owner = fs.statSync(dataDir).uid;
  } catch {
    return;
  }
  if (uid !== undefined && owner !== uid) {
    throw new Error(`The data dir ${dataDir} belongs to another user (uid ${owner}): Drover uses only a data dir of its own user's.`);
  }
}

/**
 * Opens a file of the data dir (a log to append to) only as itself: never through a symlink, and
 * only when this user owns it; anything else is refused, naming it.
 */
export function openOwnFile(file: string, flags: number): number {
  let fd: number;
  try {
    fd = fs.openSync(file, flags | fs.constants.O_NOFOLLOW, PRIVATE_FILE);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ELOOP') throw new Error(`${file} is a symbolic link: Drover writes only to a file of its own there; remove it.`, { cause: error });
    throw error;
  }
  const stat = fs.fstatSync(fd);
  const uid = ownUid();
  if ((uid !== undefined && stat.uid !== uid) || !stat.isFile()) {
    fs.closeSync(fd);
    throw new Error(`${file} ${stat.isFile() ? `belongs to another user (uid ${stat.uid})` : 'is not a plain file'}: Drover writes only to a file of its own there; remove it.`);
  }
  return fd;
}

/** What a private file of the data dir holds, or null when there is none that only this user could have written. */
export function readOwnPrivateFile(file: string): string | null {
  let fd: number;
  try {
    fd = fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW);
  } catch {
    return null;
  }
  try {
    const stat = fs.fstatSync(fd);
    const uid = ownUid();
    if (!stat.isFile() || (uid !== undefined && stat.uid !== uid) || (stat.mode & OTHERS) !== 0) return null;
    return fs.readFileSync(fd, 'utf8');
  } finally {
    fs.closeSync(fd);
  }
}

/** Writes a private file whole, in place of whatever was there (a symlink is replaced, never followed). */
export function writePrivateFile(file: string, content: string): void {
  const building = `${file}.${process.pid}.new`;
  fs.rmSync(building, { force: true });
  fs.writeFileSync(building, content, { mode: PRIVATE_FILE, flag: 'wx' });
  fs.renameSync(building, file);
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
  assertOwnDataDir(dataDir);
  const stat = fs.statSync(dataDir);
  fs.accessSync(dataDir, fs.constants.W_OK);
  const wasOpen = (stat.mode & OTHERS) !== 0;
  if (wasOpen) {
    fs.chmodSync(dataDir, PRIVATE_DIR);
    log(`the data dir ${dataDir} was open to other users (mode ${octal(stat.mode)}); it is now 0700`);
  }
  const marker = path.join(dataDir, MODES_CHECKED_FILE);
  if (!wasOpen && readOwnPrivateFile(marker) !== null) return;
  const walked: Walked = { tightened: 0, removed: [], foreignFolders: [] };
  privatizeTree(dataDir, walked);
  if (walked.tightened > 0) log(`${walked.tightened} files and folders in the data dir were readable by other users; they are now owner-only (0600 / 0700)`);
  if (walked.removed.length > 0) log(`removed what another user had put in the data dir, which Drover does not trust: ${walked.removed.join(', ')}`);
  if (walked.foreignFolders.length > 0) {
    throw new Error(
      `The data dir ${dataDir} holds folders another user made while it was open to others: ${walked.foreignFolders.join(', ')}. ` +
        'Drover does not trust them and cannot remove them as you: have them removed (or move the data dir aside and start afresh).',
    );
  }
  writePrivateFile(marker, '1\n');
}
