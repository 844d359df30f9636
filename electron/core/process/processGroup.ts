import fs from 'node:fs';

/**
 * The kernel's start time of a process (clock ticks since boot, field 22 of /proc/PID/stat). With
 * the pid it identifies a process across restarts, so a reused pid is never mistaken for our task.
 */
export function readProcessStartTime(pid: number): string | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const afterName = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return afterName[19] ?? null;
  } catch {
    return null;
  }
}

/** True while the process that had `pid` and `startTime` is still the one alive under that pid. */
export function isSameProcessAlive(pid: number, startTime: string | null): boolean {
  // Without a recorded start time a live pid proves nothing: it may belong to anyone now.
  return startTime !== null && readProcessStartTime(pid) === startTime;
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
