import { ACTIVE_TASK_STATES } from '../../shared/entities/tasks';
import type { RunningWork } from '../../shared/host';
import type { CoreApi } from '../core/api';

/**
 * What a stop of the host would end, across every project: agents whose session has not exited,
 * and queued, running or cancelling tasks. A project whose database cannot be read counts as idle
 * (its problem is reported where the project is shown).
 */
export async function listRunningWork(api: CoreApi): Promise<RunningWork> {
  const { projects } = await api.listProjects({});
  const work: RunningWork = { agents: [], tasks: [] };
  for (const project of projects) {
    try {
      const state = await api.getWorkState({ projectId: project.id });
      const names = new Map(state.agents.map((agent) => [agent.id, agent.name]));
      for (const session of state.sessions) {
        if (session.state === 'exited') continue;
        work.agents.push({ projectId: project.id, projectName: project.name, agentId: session.agentId, name: names.get(session.agentId) ?? session.agentId, state: session.state });
      }
      for (let after: string | undefined; ; ) {
        const page = await api.listTasks({ projectId: project.id, states: [...ACTIVE_TASK_STATES], ...(after ? { after } : {}) });
        for (const task of page.tasks) {
          work.tasks.push({ projectId: project.id, projectName: project.name, taskId: task.id, name: task.label ?? task.command, state: task.state });
        }
        if (page.next === null) break;
        after = page.next;
      }
    } catch {
      // Reported where the project is shown; a stop ends nothing in it.
    }
  }
  return work;
}
