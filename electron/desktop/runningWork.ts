import { ACTIVE_TASK_STATES } from '../../shared/entities';
import type { CoreApi } from '../core/api';

/** What a restart would stop, across every project. */
export interface RunningWork {
  /** Queued, running or cancelling tasks. */
  tasks: number;
  /** Agents whose session has not exited. */
  agents: number;
}

/** Counts it through the API; a project whose database cannot be read counts as idle. */
export async function countRunningWork(api: CoreApi): Promise<RunningWork> {
  const { projects } = await api.listProjects({});
  const work: RunningWork = { tasks: 0, agents: 0 };
  for (const project of projects) {
    try {
      const state = await api.getWorkState({ projectId: project.id });
      for (let after: string | undefined; ; ) {
        const page = await api.listTasks({ projectId: project.id, states: [...ACTIVE_TASK_STATES], ...(after ? { after } : {}) });
        work.tasks += page.tasks.length;
        if (page.next === null) break;
        after = page.next;
      }
      work.agents += state.sessions.filter((session) => session.state !== 'exited').length;
    } catch {
      // Reported where the project is shown; a restart stops nothing in it.
    }
  }
  return work;
}
