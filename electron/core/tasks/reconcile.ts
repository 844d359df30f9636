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
    namesSameProcess: (pid, startTime) => live.has(pid) && namesSameProcess(pid, startTime),
    killGroup: (pid) => signalProcessGroup(pid, 'SIGKILL'),
  };
}

/**
 * Boot reconciliation of one project's tasks, before anything is served: no runner survives a
 * restart, so `running` becomes `interrupted` and `cancelling` becomes `cancelled`, and a process
 * group still alive from before is killed only if its pid still names the same process. Queued
 * tasks stay queued. Running it twice changes nothing the second time.
 */
export function reconcileTasks(
  store: TaskStore,
  processes: ProcessTable = liveProcessTable(),
  now = Date.now(),
): { report: ReconcileReport; changed: Task[] } {
  const report: ReconcileReport = { projectId: store.projectId, interrupted: 0, cancelled: 0, killed: 0, queued: 0 };
  const changed = store.endStranded(now);
  for (const task of changed) {
    if (task.state === 'interrupted') report.interrupted++;
    else report.cancelled++;
    if (task.pid !== null && processes.namesSameProcess(task.pid, task.pidStartTime)) {
      processes.killGroup(task.pid);
      report.killed++;
    }
  }
  report.queued = store.count('queued');
  return { report, changed };
}
