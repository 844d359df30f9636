import fs from 'node:fs';

interface ProcessStat {
  /** One letter: R running, S sleeping, … Z a zombie (dead, not yet reaped by its parent), X dead. */
  state: string;
  /** Clock ticks since boot when it started (field 22): with the pid it names one process. */
  startTime: string;
}

function readProcessStat(pid: number): ProcessStat | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The name (field 2) may hold spaces and parentheses: the fields after it start past the last ')'.
    const afterName = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const [state, startTime] = [afterName[0], afterName[19]];
    return state && startTime ? { state, startTime } : null;
  } catch {
    return null;
  }
}

/**
 * The kernel's start time of a process (clock ticks since boot, field 22 of /proc/PID/stat). With
 * the pid it identifies a process across restarts, so a reused pid is never mistaken for our task.
 */
export function readProcessStartTime(pid: number): string | null {
  return readProcessStat(pid)?.startTime ?? null;
}

/**
 * True while `pid` still names the process that started at `startTime`: alive, or dead and not yet
 * reaped (a zombie). A group it leads may still have members, and no other process can have taken
 * its pid, so signalling its group reaches only what it started.
 */
export function namesSameProcess(pid: number, startTime: string | null): boolean {
  // Without a recorded start time a live pid proves nothing: it may belong to anyone now.
  return startTime !== null && readProcessStat(pid)?.startTime === startTime;
}

/**
 * True while the process that had `pid` and `startTime` is still the one alive under that pid. A
 * zombie is dead: it keeps its pid and start time only until its parent reaps it, which a parent
 * busy with the dead process's closed socket may not have done yet.
 */
export function isSameProcessAlive(pid: number, startTime: string | null): boolean {
  const state = namesSameProcess(pid, startTime) ? readProcessStat(pid)?.state : undefined;
  return state !== undefined && state !== 'Z' && state !== 'X';
}

/** True while any process is in the group led by `pgid`. */
export function isProcessGroupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Signals the whole process group; a group that is already gone is not an error. */
export function signalProcessGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
  }
}

/** Every pid alive right now. */
export function listLivePids(): Set<number> {
  const pids = new Set<number>();
  for (const name of fs.readdirSync('/proc')) {
    if (/^\d+$/.test(name)) pids.add(Number(name));
  }
  return pids;
}

/**
 * Asks a process group to end (SIGTERM) and kills it (SIGKILL) if it is still there after the grace
 * period. Returns a function that cancels the pending kill (the group ended on its own).
 */
export function terminateProcessGroup(pgid: number, graceMs: number): () => void {
  signalProcessGroup(pgid, 'SIGTERM');
  const timer = setTimeout(() => signalProcessGroup(pgid, 'SIGKILL'), graceMs);
  timer.unref();
  return () => clearTimeout(timer);
}
