import fs from 'node:fs';
import { isInside } from '../../../shared/folders';

/** A live git process, and the folder it works in (null when /proc does not say: another user's). */
export interface LiveGit {
  pid: number;
  cwd: string | null;
}

interface ProcessInfo {
  pid: number;
  uid: number;
}

/** The kernel marks the cwd of a process whose folder was deleted. */
const DELETED_SUFFIX = ' (deleted)';

/** Where a /proc link points; null when /proc will not say, undefined when the process is gone. */
function readLink(file: string): string | null | undefined {
  try {
    const target = fs.readlinkSync(file);
    return target.endsWith(DELETED_SUFFIX) ? target.slice(0, -DELETED_SUFFIX.length) : target;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT' ? undefined : null;
  }
}

function processInfo(pid: number): ProcessInfo | null {
  try {
    return { pid, uid: fs.statSync(`/proc/${pid}`).uid };
  } catch {
    return null;
  }
}

function isGitProcess(pid: number): boolean {
  try {
    const name = fs.readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
    // git itself, and its helpers (git-remote-https, git-lfs, ...)
    return name === 'git' || name.startsWith('git-');
  } catch {
    return false;
  }
}

/**
 * What runs on this machine that could still be using a git lock, read from /proc once, when first
 * asked. Only processes of this user and of root can have made a lock this user owns, so only they
 * count; a git of theirs whose folder /proc will not show is taken to be working anywhere.
 */
export class GitActivity {
  /** `livePids` lists every process of the machine (the process domain reads them from /proc). */
  constructor(private readonly livePids: () => Iterable<number>) {}

  private processes: ProcessInfo[] | null = null;
  private gits: LiveGit[] | null = null;
  private openFiles: Map<string, number> | null = null;

  /** A live git working inside one of `folders` (real paths), or one that may be. */
  gitIn(folders: readonly string[]): LiveGit | undefined {
    this.gits ??= this.relevant()
      .filter((info) => isGitProcess(info.pid))
      .map((info) => ({ pid: info.pid, cwd: readLink(`/proc/${info.pid}/cwd`) }))
      .filter((live): live is LiveGit => live.cwd !== undefined);
    return this.gits.find((live) => live.cwd === null || folders.some((folder) => isInside(folder, live.cwd as string)));
  }

  /** The pid of a process holding `file` open, if any. */
  holderOf(file: string): number | undefined {
    if (!this.openFiles) {
      const open = new Map<string, number>();
      for (const { pid } of this.relevant()) {
        let fds: string[];
        try {
          fds = fs.readdirSync(`/proc/${pid}/fd`);
        } catch {
          continue;
        }
        for (const fd of fds) {
          const target = readLink(`/proc/${pid}/fd/${fd}`);
          if (target?.startsWith('/')) open.set(target, pid);
        }
      }
      this.openFiles = open;
    }
    return this.openFiles.get(file);
  }

  private relevant(): ProcessInfo[] {
    const uid = process.getuid?.() ?? -1;
    this.processes ??= [...this.livePids()]
      .filter((pid) => pid !== process.pid)
      .map(processInfo)
      .filter((info): info is ProcessInfo => info !== null && (info.uid === uid || info.uid === 0));
    return this.processes;
  }
}
