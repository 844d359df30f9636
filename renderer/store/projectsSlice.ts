import type { Project } from '../../shared/entities/projects';
import type { ProjectChanged } from '../../shared/events';
import { loadFailed, reloading, type Loadable, type Slice, type SliceContext, type StateCell } from './slice';
import { loadThroughGate, SnapshotGate } from './snapshotGate';
import { applyNewer, byKey, without, type EntityMap } from './versioned';

export interface ProjectsSlice extends Loadable {
  byId: EntityMap<Project>;
}

export interface ProjectsActions {
  addProject(path: string): Promise<Project>;
  renameProject(projectId: string, name: string): Promise<Project>;
  removeProject(projectId: string): Promise<void>;
}

/** The registered projects: `listProjects`, then `projectChanged` events. */
export function createProjectsSlice(
  cell: StateCell<ProjectsSlice>,
  { bridge }: SliceContext,
  onRemoved: (projectId: string) => void,
): Slice<ProjectsSlice, ProjectsActions> {
  const gate = new SnapshotGate<ProjectChanged>();

  function put(project: Project): Project {
    cell.set((slice) => {
      const byId = applyNewer(slice.byId, project.id, project);
      return byId === slice.byId ? slice : { ...slice, byId };
    });
    return project;
  }

  function drop(projectId: string): void {
    onRemoved(projectId);
    cell.set((slice) => ({ ...slice, byId: without(slice.byId, projectId) }));
  }

  function apply(event: ProjectChanged): void {
    if (event.project) put(event.project);
    else drop(event.projectId);
  }

  const actions: ProjectsActions = {
    addProject: async (path) => put(await bridge.call('addProject', { path })),
    renameProject: async (projectId, name) => put(await bridge.call('renameProject', { projectId, name })),
    removeProject: async (projectId) => {
      await bridge.call('removeProject', { projectId });
      drop(projectId);
    },
  };

  return {
    initial: { status: 'loading', error: null, byId: {} },
    actions,
    refetch() {
      void loadThroughGate(gate, () => bridge.call('listProjects', {}), {
        loading: () => cell.set(reloading),
        followed: () => true,
        loaded: (snapshot) => cell.set(() => ({ status: 'ready', error: null, byId: byKey(snapshot.projects, (project) => project.id) })),
        failed: (message) => cell.set((slice) => loadFailed(slice, message)),
        apply,
      });
    },
    onEvent(event) {
      if (event.name === 'projectChanged' && gate.admit(event)) apply(event);
    },
  };
}
