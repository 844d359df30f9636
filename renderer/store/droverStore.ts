import { createStore, type StoreApi } from 'zustand/vanilla';
import type { Bridge, ConnectionState } from '../bridge';
import { createAgentsSlice, type AgentsActions } from './agentsSlice';
import { createAppSettingsSlice, type AppSettingsActions, type AppSettingsSlice } from './appSettingsSlice';
import { createProfilesSlice, type ProfilesActions, type ProfilesSlice } from './profilesSlice';
import { createProjectsSlice, type ProjectsActions, type ProjectsSlice } from './projectsSlice';
import type { SliceContext, StateCell } from './slice';
import { createWorkStateSlice, type WorkStateActions } from './workStateSlice';
import type { WorkStates } from './projectWorkState';

export interface DroverActions extends ProjectsActions, WorkStateActions, AgentsActions, ProfilesActions, AppSettingsActions {}

export interface DroverState {
  connection: ConnectionState;
  projects: ProjectsSlice;
  /** Only for projects someone asked to track; re-fetched after every reconnect. */
  workStates: WorkStates;
  profiles: ProfilesSlice;
  appSettings: AppSettingsSlice;
  actions: DroverActions;
}

export type DroverStore = StoreApi<DroverState>;

/**
 * The renderer's single source of truth, composed of slices (projects, work state, agents and
 * their inboxes, profiles, app settings), each fed by its snapshot (`listProjects`, `getWorkState`, ...) plus
 * the events newer than it. Each 'open' of the connection re-fetches every snapshot, because
 * events sent while the connection was down are gone.
 */
export function createDroverStore(bridge: Bridge): DroverStore {
  function cell<K extends 'projects' | 'workStates' | 'profiles' | 'appSettings'>(key: K): StateCell<DroverState[K]> {
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
  const projects = createProjectsSlice(cell('projects'), context, workStates.forget);
  const profiles = createProfilesSlice(cell('profiles'), context);
  const appSettings = createAppSettingsSlice(cell('appSettings'), context);
  const slices = [projects, workStates, profiles, appSettings];

  const store = createStore<DroverState>()(() => ({
    connection: bridge.connectionState(),
    projects: projects.initial,
    workStates: workStates.initial,
    profiles: profiles.initial,
    appSettings: appSettings.initial,
    actions: { ...projects.actions, ...workStates.actions, ...agents.actions, ...profiles.actions, ...appSettings.actions },
  }));

  const refetchEverything = () => slices.forEach((slice) => slice.refetch());
  bridge.onEvent((event) => slices.forEach((slice) => slice.onEvent?.(event)));
  bridge.onConnectionChange((connection) => {
    store.setState({ connection });
    if (connection === 'open') refetchEverything();
  });
  if (bridge.connectionState() === 'open') refetchEverything();

  return store;
}
