import type { Task } from '../../../shared/entities';
import { isSameProcessAlive, signalProcessGroup } from './processControl';
import type { TaskStore } from './taskStore';

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
  isSameProcessAlive(pid: number, startTime: string | null): boolean;
  killGroup(pid: number): void;
}

export const systemProcessTable: ProcessTable = {
  isSameProcessAlive,
  killGroup: (pid) => signalProcessGroup(pid, 'SIGKILL'),
};

/**
 * Boot reconciliation of one project's tasks, before anything is served: no runner survives a
 * restart, so `running` becomes `interrupted` and `cancelling` becomes `cancelled`, and a process
 * group still alive from before is killed only if its pid still names the same process. Queued
 * tasks stay queued. Running it twice changes nothing the second time.
 */
export function reconcileTasks(
  store: TaskStore,
  processes: ProcessTable = systemProcessTable,
  now = Date.now(),
): { report: ReconcileReport; changed: Task[] } {
  const report: ReconcileReport = { projectId: store.projectId, interrupted: 0, cancelled: 0, killed: 0, queued: 0 };
  const changed = store.transaction(() => {
    const stranded = [...store.inState('running'), ...store.inState('cancelling')];
    return stranded.map((task) => {
      if (task.pid !== null && processes.isSameProcessAlive(task.pid, task.pidStartTime)) {
        processes.killGroup(task.pid);
        report.killed++;
      }
      if (task.state === 'running') {
        report.interrupted++;
        return store.update(task.id, { state: 'interrupted', reason: 'app-restart', endedAt: now });
      }
      report.cancelled++;
      return store.update(task.id, { state: 'cancelled', reason: task.reason ?? 'cancelled; finished at restart', endedAt: now });
    });
  });
  report.queued = store.count('queued');
  return { report, changed };
}
