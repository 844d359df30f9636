import type { ProjectSettings } from '../../../shared/entities';
import type { Methods } from '../api';
import type { ProjectStores } from '../storage/projectStores';
import type { ProjectRegistry } from './projectRegistry';

type ProjectMethod =
  | 'getStatus'
  | 'listProjects'
  | 'addProject'
  | 'renameProject'
  | 'removeProject'
  | 'findProjectByPath'
  | 'getProjectSettings'
  | 'updateProjectSettings'
  | 'getWorkState';

/** What runs in a project: stopped before the project is forgotten, told when its settings change. */
export interface ProjectWork {
  /** Stops what runs and starts nothing new until `projectClosed`. */
  stopProject(projectId: string): Promise<void>;
  projectClosed(projectId: string): void;
  /** Refuses a settings change this part cannot work with, before it is stored. */
  checkSettings?(projectId: string, change: Partial<ProjectSettings>): void;
  settingsChanged?(projectId: string): void;
}

export interface StatusInfo {
  version: string;
  dataDir: string;
  socketPath: string;
}

/** Projects: the registry, each project's settings, and a snapshot of its whole work state. */
export function projectMethods(projects: ProjectRegistry, stores: ProjectStores, work: readonly ProjectWork[], status: StatusInfo): Methods<ProjectMethod> {
  return {
    getStatus: () => ({ ...status, projects: projects.list().projects }),
    listProjects: () => projects.list(),
    addProject: ({ path }) => projects.add(path),
    renameProject: ({ projectId, name }) => projects.rename(projectId, name),
    removeProject: async ({ projectId }) => {
      projects.get(projectId);
      try {
        await Promise.all(work.map((part) => part.stopProject(projectId)));
        stores.close(projectId);
        projects.remove(projectId);
      } finally {
        for (const part of work) part.projectClosed(projectId);
      }
      return { projectId };
    },
    findProjectByPath: ({ path }) => projects.findContaining(path),
    getProjectSettings: ({ projectId }) => {
      projects.get(projectId);
      return stores.get(projectId).settings.get();
    },
    updateProjectSettings: ({ projectId, settings }) => {
      projects.get(projectId);
      for (const part of work) part.checkSettings?.(projectId, settings);
      const updated = stores.get(projectId).settings.update(settings);
      for (const part of work) part.settingsChanged?.(projectId);
      return updated;
    },
    getWorkState: ({ projectId }) => {
      projects.get(projectId);
      const store = stores.get(projectId);
      return store.transaction(() => ({
        projectId,
        seq: store.seq.current,
        tasks: store.tasks.list(),
        agents: store.agents.list(),
        sessions: store.sessions.latestOfEach(),
        messages: store.inbox.messages(),
        wakes: store.wakes.visible(),
        worktrees: store.worktrees.list(),
      }));
    },
  };
}
