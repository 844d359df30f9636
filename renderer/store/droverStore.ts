import { createStore, type StoreApi } from 'zustand/vanilla';
import { isTaskFinished, type Project, type ProjectSettings, type Task } from '../../shared/entities';
import type { BackgroundTaskChanged, DroverEvent, ProjectChanged } from '../../shared/events';
import type { Bridge, ConnectionState, Unsubscribe } from '../bridge';
import { Listeners } from '../transport/listeners';
import { errorMessage } from './errorMessage';
import { SnapshotGate } from './snapshotGate';

export type LoadStatus = 'loading' | 'ready' | 'error';

export interface ProjectsSlice {
  status: LoadStatus;
  error: string | null;
  byId: Readonly<Record<string, Project>>;
}

export interface WorkStateSlice {
  status: LoadStatus;
  error: string | null;
  tasksById: Readonly<Record<string, Task>>;
}

export interface DroverActions {
  addProject(path: string): Promise<Project>;
  renameProject(projectId: string, name: string): Promise<Project>;
  removeProject(projectId: string): Promise<void>;
  /** Starts following a project's work state (snapshot, then events); idempotent. */
  trackWorkState(projectId: string): void;
  cancelTask(taskId: string): Promise<Task>;
  retryTask(taskId: string): Promise<Task>;
  getProjectSettings(projectId: string): Promise<ProjectSettings>;
  updateProjectSettings(projectId: string, settings: Partial<ProjectSettings>): Promise<ProjectSettings>;
  /**
   * Tasks seen ending live (an event moved them into a finished state); never fired for what a
   * snapshot reveals after a reload or reconnect. Toasts listen here, and so can a native notifier.
   */
  onTaskEnded(listener: (task: Task) => void): Unsubscribe;
}

export interface DroverState {
  connection: ConnectionState;
  projects: ProjectsSlice;
  /** Only for projects someone asked to track; re-fetched after every reconnect. */
  workStates: Readonly<Record<string, WorkStateSlice>>;
  actions: DroverActions;
}

export type DroverStore = StoreApi<DroverState>;

const EMPTY_WORK_STATE: WorkStateSlice = { status: 'loading', error: null, tasksById: {} };

/** A re-fetch keeps showing the data already held instead of flashing back to "loading". */
function keepReady(status: LoadStatus): LoadStatus {
  return status === 'ready' ? 'ready' : 'loading';
}

function without<V>(record: Readonly<Record<string, V>>, key: string): Record<string, V> {
  const copy = { ...record };
  delete copy[key];
  return copy;
}

/**
 * The renderer's single source of truth, fed by snapshots (`listProjects`, `getWorkState`) plus
 * the events newer than them. Each 'open' of the connection re-fetches every snapshot, because
 * events sent while the connection was down are gone.
 */
export function createDroverStore(bridge: Bridge): DroverStore {
  const projectGate = new SnapshotGate<ProjectChanged>();
  const workStateGates = new Map<string, SnapshotGate<BackgroundTaskChanged>>();
  const taskEndings = new Listeners<Task>();

  const store = createStore<DroverState>()(() => ({
    connection: bridge.connectionState(),
    projects: { status: 'loading', error: null, byId: {} },
    workStates: {},
    actions: {
      addProject,
      renameProject,
      removeProject,
      trackWorkState,
      cancelTask: (taskId) => bridge.call('cancelTask', { taskId }),
      retryTask: (taskId) => bridge.call('retryTask', { taskId }),
      getProjectSettings: (projectId) => bridge.call('getProjectSettings', { projectId }),
      updateProjectSettings: (projectId, settings) => bridge.call('updateProjectSettings', { projectId, settings }),
      onTaskEnded: (listener) => taskEndings.add(listener),
    },
  }));
  const { setState, getState } = store;

  function putProject(project: Project): void {
    const current = getState().projects;
    const known = current.byId[project.id];
    if (known && known.seq > project.seq) return;
    setState({ projects: { ...current, byId: { ...current.byId, [project.id]: project } } });
  }

  function dropProject(projectId: string): void {
    const { projects, workStates } = getState();
    workStateGates.delete(projectId);
    setState({
      projects: { ...projects, byId: without(projects.byId, projectId) },
      workStates: without(workStates, projectId),
    });
  }

  function applyProjectChanged(event: ProjectChanged): void {
    if (event.project) putProject(event.project);
    else dropProject(event.projectId);
  }

  async function loadProjects(): Promise<void> {
    const ticket = projectGate.beginSnapshot();
    setState((state) => ({ projects: { ...state.projects, status: keepReady(state.projects.status), error: null } }));
    try {
      const snapshot = await bridge.call('listProjects', {});
      const newer = projectGate.completeSnapshot(ticket, snapshot.seq);
      if (newer === null) return;
      const byId = Object.fromEntries(snapshot.projects.map((project) => [project.id, project]));
      setState({ projects: { status: 'ready', error: null, byId } });
      newer.forEach(applyProjectChanged);
    } catch (error) {
      const newer = projectGate.failSnapshot(ticket);
      if (newer === null) return;
      setState((state) => ({ projects: { ...state.projects, status: 'error', error: errorMessage(error) } }));
      newer.forEach(applyProjectChanged);
    }
  }

  function setWorkState(projectId: string, update: (slice: WorkStateSlice) => WorkStateSlice): void {
    const { workStates } = getState();
    const slice = workStates[projectId] ?? EMPTY_WORK_STATE;
    setState({ workStates: { ...workStates, [projectId]: update(slice) } });
  }

  function applyTaskChanged(event: BackgroundTaskChanged): void {
    const previous = getState().workStates[event.projectId]?.tasksById[event.task.id];
    setWorkState(event.projectId, (slice) => ({
      ...slice,
      tasksById: { ...slice.tasksById, [event.task.id]: event.task },
    }));
    if (isTaskFinished(event.task.state) && !(previous && isTaskFinished(previous.state))) taskEndings.emit(event.task);
  }

  async function loadWorkState(projectId: string, gate: SnapshotGate<BackgroundTaskChanged>): Promise<void> {
    const ticket = gate.beginSnapshot();
    setWorkState(projectId, (slice) => ({ ...slice, status: keepReady(slice.status), error: null }));
    try {
      const snapshot = await bridge.call('getWorkState', { projectId });
      const newer = gate.completeSnapshot(ticket, snapshot.seq);
      if (newer === null || workStateGates.get(projectId) !== gate) return;
      const tasksById = Object.fromEntries(snapshot.tasks.map((task) => [task.id, task]));
      setWorkState(projectId, () => ({ status: 'ready', error: null, tasksById }));
      newer.forEach(applyTaskChanged);
    } catch (error) {
      const newer = gate.failSnapshot(ticket);
      if (newer === null || workStateGates.get(projectId) !== gate) return;
      setWorkState(projectId, (slice) => ({ ...slice, status: 'error', error: errorMessage(error) }));
      newer.forEach(applyTaskChanged);
    }
  }

  function trackWorkState(projectId: string): void {
    if (workStateGates.has(projectId)) return;
    const gate = new SnapshotGate<BackgroundTaskChanged>();
    workStateGates.set(projectId, gate);
    setWorkState(projectId, () => EMPTY_WORK_STATE);
    if (getState().connection === 'open') void loadWorkState(projectId, gate);
  }

  async function addProject(path: string): Promise<Project> {
    const project = await bridge.call('addProject', { path });
    putProject(project);
    return project;
  }

  async function renameProject(projectId: string, name: string): Promise<Project> {
    const project = await bridge.call('renameProject', { projectId, name });
    putProject(project);
    return project;
  }

  async function removeProject(projectId: string): Promise<void> {
    await bridge.call('removeProject', { projectId });
    dropProject(projectId);
  }

  function refetchEverything(): void {
    void loadProjects();
    for (const [projectId, gate] of workStateGates) void loadWorkState(projectId, gate);
  }

  function onEvent(event: DroverEvent): void {
    if (event.name === 'projectChanged') {
      if (projectGate.admit(event)) applyProjectChanged(event);
    } else if (event.name === 'backgroundTaskChanged') {
      const gate = workStateGates.get(event.projectId);
      if (gate?.admit(event)) applyTaskChanged(event);
    }
  }

  bridge.onEvent(onEvent);
  bridge.onConnectionChange((connection) => {
    setState({ connection });
    if (connection === 'open') refetchEverything();
  });
  if (bridge.connectionState() === 'open') refetchEverything();

  return store;
}
