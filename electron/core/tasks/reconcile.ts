import type { Task } from '../../../shared/entities/tasks';
import { listLivePids, namesSameProcess, signalProcessGroup } from '../process/processGroup';
import type { TaskStore } from '../storage/taskStore';

export interface ReconcileReport {
  projectId: string;
  interrupted: number;
  cancelled: number;
  /** Surviving process groups that were still ours (same pid and start time) and were killed. */
  killed: number;
  /** Queued tasks left in the queue, to start once the project is served. */
  queued: number;
}

export interface ProcessTable {
  /** The pids that name a process now: a task whose pid is not among them ran a process that is gone. */
  livePids(): Iterable<number>;
  /** The pid still names that process, alive or not yet reaped (its group may live on). */
  namesSameProcess(pid: number, startTime: string | null): boolean;
  killGroup(pid: number): void;
}

/**
 * The live process table, listed once: tasks stranded by a restart were started before it, so a
 * pid missing from the list is gone without a /proc lookup each (which dominates large stores).
 */
export function liveProcessTable(): ProcessTable {
  const live = listLivePids();
  return {
    livePids: () => live,
    namesSameProcess: (pid, startTime) => live.has(pid) && namesSameProcess(pid, startTime),
    killGroup: (pid) => signalProcessGroup(pid, 'SIGKILL'),
  };
}

/**
 * Boot reconciliation of one project's tasks, before anything is served: no runner survives a
 * restart, so `running` becomes `interrupted` and `cancelling` becomes `cancelled`, and a process
 * group still alive from before is killed only if its pid still names the same process. Queued
 * tasks stay queued. Running it twice changes nothing the second time. `changed` builds each task
 * as it is iterated, so announcing them one by one never holds them all.
 */
export function reconcileTasks(
  store: TaskStore,
  processes: ProcessTable = liveProcessTable(),
  now = Date.now(),
): { report: ReconcileReport; changed: Iterable<Task> } {
  const ended = store.endStranded(now, processes.livePids());
  let killed = 0;
  for (const { pid, startTime } of ended.leftovers) {
    if (!processes.namesSameProcess(pid, startTime)) continue;
    processes.killGroup(pid);
    killed++;
  }
  const report: ReconcileReport = { projectId: store.projectId, interrupted: ended.interrupted, cancelled: ended.cancelled, killed, queued: store.count('queued') };
  return { report, changed: ended.tasks };
}
