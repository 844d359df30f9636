import { createStore, type StoreApi } from 'zustand/vanilla';
import type { MethodParams } from '../../shared/contract';
import {
  isTaskFinished,
  type Agent,
  type AgentProfile,
  type AgentProfileInput,
  type AgentSession,
  type InboxMessage,
  type Project,
  type ProjectSettings,
  type ProjectWorkState,
  type Task,
  type Wake,
} from '../../shared/entities';
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
  agentsById: Readonly<Record<string, Agent>>;
  /** The latest session of each agent that has one, keyed by agent id. */
  sessionsByAgentId: Readonly<Record<string, AgentSession>>;
  messagesById: Readonly<Record<string, InboxMessage>>;
  /** Each agent's current wake: the open one, else the latest. */
  wakesByAgentId: Readonly<Record<string, Wake>>;
}

export interface ProfilesSlice {
  status: LoadStatus;
  error: string | null;
  /** Built-in profiles first, as the host lists them. */
  list: readonly AgentProfile[];
}

const WORK_STATE_EVENTS = ['backgroundTaskChanged', 'agentChanged', 'agentSessionChanged', 'agentInboxChanged', 'agentWakeChanged'] as const;
type WorkStateEvent = Extract<DroverEvent, { name: (typeof WORK_STATE_EVENTS)[number] }>;
type AgentChanged = Extract<DroverEvent, { name: 'agentChanged' }>;

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
  /** Starts keeping the agent profiles loaded (they have no events: re-read after each change). */
  trackAgentProfiles(): void;
  reloadAgentProfiles(): Promise<void>;
  saveAgentProfile(profile: AgentProfileInput): Promise<AgentProfile>;
  deleteAgentProfile(profileId: string): Promise<void>;
  createAgent(params: MethodParams<'createAgent'>): Promise<Agent>;
  updateAgent(params: MethodParams<'updateAgent'>): Promise<Agent>;
  removeAgent(agentId: string): Promise<void>;
  startAgent(agentId: string, resume: boolean): Promise<AgentSession>;
  stopAgent(agentId: string): Promise<AgentSession>;
  restartAgent(agentId: string): Promise<AgentSession>;
  markInboxRead(agentId: string): Promise<void>;
  /** A person's note to an agent, delivered by a wake like any message. */
  sendNote(projectId: string, agentId: string, body: string): Promise<InboxMessage>;
  /** Resolves with how many messages were typed in; rejects when the agent is not ready. */
  wakeAgent(agentId: string): Promise<number>;
  holdAgentWakes(agentId: string, hold: boolean): Promise<void>;
}

export interface DroverState {
  connection: ConnectionState;
  projects: ProjectsSlice;
  /** Only for projects someone asked to track; re-fetched after every reconnect. */
  workStates: Readonly<Record<string, WorkStateSlice>>;
  profiles: ProfilesSlice;
  actions: DroverActions;
}

export type DroverStore = StoreApi<DroverState>;

const EMPTY_WORK_STATE: WorkStateSlice = {
  status: 'loading',
  error: null,
  tasksById: {},
  agentsById: {},
  sessionsByAgentId: {},
  messagesById: {},
  wakesByAgentId: {},
};

function isWorkStateEvent(event: DroverEvent): event is WorkStateEvent {
  return (WORK_STATE_EVENTS as readonly string[]).includes(event.name);
}

/** Wakes of one agent follow each other (a new one opens only once the last closed). */
export function currentWake(known: Wake | undefined, incoming: Wake): Wake {
  if (!known) return incoming;
  if (known.id === incoming.id) return known.seq > incoming.seq ? known : incoming;
  return incoming.createdAt >= known.createdAt ? incoming : known;
}

/** A re-fetch keeps showing the data already held instead of flashing back to "loading". */
function keepReady(status: LoadStatus): LoadStatus {
  return status === 'ready' ? 'ready' : 'loading';
}

function byKey<V>(items: readonly V[], key: (item: V) => string): Record<string, V> {
  return Object.fromEntries(items.map((item) => [key(item), item]));
}

function workStateFromSnapshot(snapshot: ProjectWorkState): WorkStateSlice {
  return {
    status: 'ready',
    error: null,
    tasksById: byKey(snapshot.tasks, (task) => task.id),
    agentsById: byKey(snapshot.agents, (agent) => agent.id),
    sessionsByAgentId: byKey(snapshot.sessions, (session) => session.agentId),
    messagesById: byKey(snapshot.messages, (message) => message.id),
    wakesByAgentId: snapshot.wakes.reduce<Record<string, Wake>>((byAgent, wake) => {
      byAgent[wake.agentId] = currentWake(byAgent[wake.agentId], wake);
      return byAgent;
    }, {}),
  };
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
  const workStateGates = new Map<string, SnapshotGate<WorkStateEvent>>();
  let profilesTracked = false;
  const taskEndings = new Listeners<Task>();

  const store = createStore<DroverState>()(() => ({
    connection: bridge.connectionState(),
    projects: { status: 'loading', error: null, byId: {} },
    workStates: {},
    profiles: { status: 'loading', error: null, list: [] },
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
      trackAgentProfiles,
      reloadAgentProfiles: loadProfiles,
      saveAgentProfile,
      deleteAgentProfile,
      createAgent,
      updateAgent,
      removeAgent,
      startAgent: (agentId, resume) => bridge.call('startAgent', { agentId, resume }).then(putSession),
      stopAgent: (agentId) => bridge.call('stopAgent', { agentId }).then(putSession),
      restartAgent: (agentId) => bridge.call('restartAgent', { agentId, resume: true }).then(putSession),
      markInboxRead: (agentId) => bridge.call('markInboxRead', { agentId }).then((read) => read.forEach(putMessage)),
      sendNote: (projectId, agentId, body) => bridge.call('sendMessage', { projectId, to: agentId, kind: 'note', body }).then(putMessage),
      wakeAgent: (agentId) => bridge.call('wakeAgent', { agentId }).then((result) => result.delivered),
      holdAgentWakes: (agentId, hold) => bridge.call('holdAgentWakes', { agentId, hold }).then(() => undefined),
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
    if (previous && previous.seq > event.task.seq) return;
    setWorkState(event.projectId, (slice) => ({
      ...slice,
      tasksById: { ...slice.tasksById, [event.task.id]: event.task },
    }));
    if (isTaskFinished(event.task.state) && !(previous && isTaskFinished(previous.state))) taskEndings.emit(event.task);
  }

  function putAgent(agent: Agent): Agent {
    setWorkState(agent.projectId, (slice) => {
      const known = slice.agentsById[agent.id];
      if (known && known.seq > agent.seq) return slice;
      return { ...slice, agentsById: { ...slice.agentsById, [agent.id]: agent } };
    });
    return agent;
  }

  function dropAgent(projectId: string, agentId: string): void {
    setWorkState(projectId, (slice) => ({
      ...slice,
      agentsById: without(slice.agentsById, agentId),
      sessionsByAgentId: without(slice.sessionsByAgentId, agentId),
      wakesByAgentId: without(slice.wakesByAgentId, agentId),
    }));
  }

  function putSession(session: AgentSession): AgentSession {
    setWorkState(session.projectId, (slice) => {
      const known = slice.sessionsByAgentId[session.agentId];
      if (known && known.seq > session.seq) return slice;
      return { ...slice, sessionsByAgentId: { ...slice.sessionsByAgentId, [session.agentId]: session } };
    });
    return session;
  }

  function putMessage(message: InboxMessage): InboxMessage {
    setWorkState(message.projectId, (slice) => {
      const known = slice.messagesById[message.id];
      if (known && known.seq > message.seq) return slice;
      return { ...slice, messagesById: { ...slice.messagesById, [message.id]: message } };
    });
    return message;
  }

  function putWake(wake: Wake): void {
    setWorkState(wake.projectId, (slice) => ({
      ...slice,
      wakesByAgentId: { ...slice.wakesByAgentId, [wake.agentId]: currentWake(slice.wakesByAgentId[wake.agentId], wake) },
    }));
  }

  function applyAgentChanged(event: AgentChanged): void {
    if (event.agent) putAgent(event.agent);
    else dropAgent(event.projectId, event.agentId);
  }

  function applyWorkStateEvent(event: WorkStateEvent): void {
    if (event.name === 'backgroundTaskChanged') applyTaskChanged(event);
    else if (event.name === 'agentChanged') applyAgentChanged(event);
    else if (event.name === 'agentInboxChanged') putMessage(event.message);
    else if (event.name === 'agentWakeChanged') putWake(event.wake);
    else putSession(event.session);
  }

  async function loadWorkState(projectId: string, gate: SnapshotGate<WorkStateEvent>): Promise<void> {
    const ticket = gate.beginSnapshot();
    setWorkState(projectId, (slice) => ({ ...slice, status: keepReady(slice.status), error: null }));
    try {
      const snapshot = await bridge.call('getWorkState', { projectId });
      const newer = gate.completeSnapshot(ticket, snapshot.seq);
      if (newer === null || workStateGates.get(projectId) !== gate) return;
      setWorkState(projectId, () => workStateFromSnapshot(snapshot));
      newer.forEach(applyWorkStateEvent);
    } catch (error) {
      const newer = gate.failSnapshot(ticket);
      if (newer === null || workStateGates.get(projectId) !== gate) return;
      setWorkState(projectId, (slice) => ({ ...slice, status: 'error', error: errorMessage(error) }));
      newer.forEach(applyWorkStateEvent);
    }
  }

  function trackWorkState(projectId: string): void {
    if (workStateGates.has(projectId)) return;
    const gate = new SnapshotGate<WorkStateEvent>();
    workStateGates.set(projectId, gate);
    setWorkState(projectId, () => EMPTY_WORK_STATE);
    if (getState().connection === 'open') void loadWorkState(projectId, gate);
  }

  async function loadProfiles(): Promise<void> {
    setState((state) => ({ profiles: { ...state.profiles, status: keepReady(state.profiles.status), error: null } }));
    try {
      const list = await bridge.call('listAgentProfiles', {});
      setState({ profiles: { status: 'ready', error: null, list } });
    } catch (error) {
      setState((state) => ({ profiles: { ...state.profiles, status: 'error', error: errorMessage(error) } }));
    }
  }

  function trackAgentProfiles(): void {
    if (profilesTracked) return;
    profilesTracked = true;
    if (getState().connection === 'open') void loadProfiles();
  }

  async function saveAgentProfile(input: AgentProfileInput): Promise<AgentProfile> {
    const profile = await bridge.call('saveAgentProfile', { profile: input });
    await loadProfiles();
    return profile;
  }

  async function deleteAgentProfile(profileId: string): Promise<void> {
    await bridge.call('deleteAgentProfile', { profileId });
    await loadProfiles();
  }

  async function createAgent(params: MethodParams<'createAgent'>): Promise<Agent> {
    return putAgent(await bridge.call('createAgent', params));
  }

  async function updateAgent(params: MethodParams<'updateAgent'>): Promise<Agent> {
    return putAgent(await bridge.call('updateAgent', params));
  }

  async function removeAgent(agentId: string): Promise<void> {
    const agent = Object.values(getState().workStates)
      .map((slice) => slice.agentsById[agentId])
      .find((found) => found !== undefined);
    await bridge.call('removeAgent', { agentId });
    if (agent) dropAgent(agent.projectId, agentId);
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
    if (profilesTracked) void loadProfiles();
  }

  function onEvent(event: DroverEvent): void {
    if (event.name === 'projectChanged') {
      if (projectGate.admit(event)) applyProjectChanged(event);
    } else if (isWorkStateEvent(event)) {
      const gate = workStateGates.get(event.projectId);
      if (gate?.admit(event)) applyWorkStateEvent(event);
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
