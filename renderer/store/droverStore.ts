import { createStore, type StoreApi } from 'zustand/vanilla';
import type { Bridge, ConnectionLoss, ConnectionState, Unsubscribe } from '../bridge';
import { Listeners } from '../transport/listeners';
import { createAgentsSlice, type AgentsActions } from './agentsSlice';
import { createAppSettingsSlice, type AppSettingsActions, type AppSettingsSlice } from './appSettingsSlice';
import { keptHandledKeys, raisedItem, type AttentionItem } from './attention';
import { createForgeActions, type ForgeActions } from './forgeActions';
import { createAttentionSlice, type AttentionActions, type AttentionState } from './attentionSlice';
import { createProfilesSlice, type ProfilesActions, type ProfilesSlice } from './profilesSlice';
import { createProjectsSlice, type ProjectsActions, type ProjectsSlice } from './projectsSlice';
import { createSettingsSlice, type SettingsActions, type SettingsSlice } from './settingsSlice';
import type { SliceContext, StateCell } from './slice';
import { createWorkStateSlice, type LiveChange, type WorkStateActions } from './workStateSlice';
import type { WorkStates } from './projectWorkState';

export interface DroverActions
  extends ProjectsActions,
    WorkStateActions,
    AgentsActions,
    ProfilesActions,
    SettingsActions,
    AppSettingsActions,
    AttentionActions,
    ForgeActions {
  /**
   * Items that a live change brought into the Needs you queue in a kind worth a notification
   * (see `raisedItem`); never what a snapshot shows after a reload or reconnect.
   */
  onAttentionRaised(listener: (item: AttentionItem) => void): Unsubscribe;
}

export interface DroverState {
  connection: ConnectionState;
  /** Why the connection is lost (`Bridge.loss`); null while it is not. */
  connectionLoss: ConnectionLoss | null;
  projects: ProjectsSlice;
  /** Every registered project's, re-fetched after every reconnect. */
  workStates: WorkStates;
  profiles: ProfilesSlice;
  /** Each project's settings. */
  settings: SettingsSlice;
  appSettings: AppSettingsSlice;
  attention: AttentionState;
  actions: DroverActions;
}

/** Why the machine a store follows cannot be reached, when its line said (ssh's reason, or its host's). */
export function machineProblem(state: DroverState): string | null {
  return state.connection === 'lost' && state.connectionLoss?.kind === 'machine' ? state.connectionLoss.reason : null;
}

export type DroverStore = StoreApi<DroverState>;

type CellKey = 'projects' | 'workStates' | 'profiles' | 'settings' | 'appSettings' | 'attention';

/** The change's entity, for the changes that can raise an item. */
function changedEntity({ event }: LiveChange): { agentId: string } | { taskId: string } | null {
  if (event.name === 'backgroundTaskChanged') return { taskId: event.task.id };
  if (event.name === 'agentSessionChanged') return { agentId: event.session.agentId };
  return null;
}

/**
 * The renderer's single source of truth, composed of slices (projects, work state, agents and
 * their inboxes, profiles, project and app settings, what the person handled), each fed by its
 * snapshot (`listProjects`, `getWorkState`, ...) plus the events newer than it. Each 'open' of the
 * connection re-fetches every snapshot, because events sent while the connection was down are
 * gone. Every registered project is followed, so the Needs you queue covers them all.
 */
export function createDroverStore(bridge: Bridge): DroverStore {
  function cell<K extends CellKey>(key: K): StateCell<DroverState[K]> {
    return {
      get: () => store.getState()[key],
      set: (update) => {
        const current = store.getState()[key];
        const next = update(current);
        if (next !== current) store.setState({ [key]: next } as Pick<DroverState, K>);
      },
    };
  }
  const context: SliceContext = { bridge, isOpen: () => store.getState().connection === 'open' };

  const agents = createAgentsSlice(cell('workStates'), context);
  const workStates = createWorkStateSlice(cell('workStates'), context, agents.apply);
  const settings = createSettingsSlice(cell('settings'), context);
  const attention = createAttentionSlice(cell('attention'), context);
  const projects = createProjectsSlice(cell('projects'), context, (projectId) => {
    workStates.forget(projectId);
    settings.forget(projectId);
    attention.forget(projectId);
  });
  const profiles = createProfilesSlice(cell('profiles'), context);
  const appSettings = createAppSettingsSlice(cell('appSettings'), context);
  const forge = createForgeActions(cell('workStates'), context);
  const slices = [projects, workStates, profiles, settings, appSettings, attention];
  const raised = new Listeners<AttentionItem>();

  const store = createStore<DroverState>()(() => ({
    connection: bridge.connectionState(),
    connectionLoss: bridge.loss(),
    projects: projects.initial,
    workStates: workStates.initial,
    profiles: profiles.initial,
    settings: settings.initial,
    appSettings: appSettings.initial,
    attention: attention.initial,
    actions: {
      ...projects.actions,
      ...workStates.actions,
      ...agents.actions,
      ...profiles.actions,
      ...settings.actions,
      ...appSettings.actions,
      ...attention.actions,
      ...forge,
      onAttentionRaised: (listener) => raised.add(listener),
    },
  }));

  workStates.onLiveChange((change) => {
    const entity = changedEntity(change);
    const item = entity && raisedItem(change.before, change.after, entity);
    if (item) raised.emit(item);
  });

  store.subscribe((state, previous) => {
    if (state.projects.byId !== previous.projects.byId) {
      for (const projectId of Object.keys(state.projects.byId)) {
        workStates.actions.trackWorkState(projectId);
        settings.track(projectId);
        attention.track(projectId);
      }
    }
    if (state.workStates !== previous.workStates || state.projects !== previous.projects) {
      attention.keep(keptHandledKeys(state.attention.handled, state.workStates, state.projects.byId, state.projects.status === 'ready'));
    }
  });

  const refetchEverything = () => slices.forEach((slice) => slice.refetch());
  bridge.onEvent((event) => slices.forEach((slice) => slice.onEvent?.(event)));
  bridge.onConnectionChange((connection) => {
    store.setState({ connection, connectionLoss: connection === 'lost' ? bridge.loss() : null });
    if (connection === 'open') refetchEverything();
  });
  if (bridge.connectionState() === 'open') refetchEverything();

  return store;
}
