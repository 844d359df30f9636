import type { ProjectMethodName } from '../../../shared/contract/projects';
import path from 'node:path';
import { fail } from '../errors';
import type { ProjectSettings } from '../../../shared/entities/projects';
import type { ConflictNotice } from '../../../shared/overlaps';
import type { Task } from '../../../shared/entities/tasks';
import type { Methods } from '../api';
import type { ProjectStores } from '../storage/projectStores';
import type { ProjectRegistry } from './projectRegistry';
import { workStatePart } from './workStateSnapshot';

/** What runs in a project: stopped before the project is forgotten, told when its settings change. */
export interface ProjectWork {
  /** Stops what runs and starts nothing new until `projectClosed`. */
  stopProject(projectId: string): Promise<void>;
  projectClosed(projectId: string): void;
  /** Refuses a settings change this part cannot work with, before it is stored. */
  checkSettings?(projectId: string, change: Partial<ProjectSettings>): void;
  settingsChanged?(projectId: string): void;
  /** A task as it truly stands when what runs knows more than its row (an end the disk refused). */
  present?(task: Task): Task;
}

export interface StatusInfo {
  version: string;
  dataDir: string;
  socketPath: string;
}

/** Projects: the registry, each project's settings, and a snapshot of its whole work state. */
export function projectMethods(
  projects: ProjectRegistry,
  stores: ProjectStores,
  work: readonly ProjectWork[],
  status: StatusInfo,
  /** What the work state holds that lives in the host's memory, not in the project's database. */
  conflictNotices: (projectId: string) => ConflictNotice[],
): Methods<ProjectMethodName> {
  return {
    getStatus: () => ({ ...status, projects: projects.list().projects }),
    listProjects: () => projects.list(),
    // A registered project always has its state database: it is made before the project is listed.
    addProject: ({ path: folder }) => {
      // A relative path would be taken from wherever the host happened to start.
      if (!path.isAbsolute(folder)) fail('invalid-path', `${folder} is a relative path: give the folder's full path, starting with /.`);
      return projects.add(folder, (projectId) => stores.createEmpty(projectId));
    },
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
    getWorkState: ({ projectId, after }) => {
      projects.get(projectId);
      return workStatePart(stores.get(projectId), after, conflictNotices(projectId), (task) => work.reduce((current, part) => part.present?.(current) ?? current, task));
    },
    startProjectEmpty: ({ projectId }) => {
      const project = projects.get(projectId);
      stores.createEmpty(projectId);
      return project;
    },
  };
}
