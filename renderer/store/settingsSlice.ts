import type { ProjectSettings } from '../../shared/entities/projects';
import { errorMessage } from '../format/errorMessage';
import type { Slice, SliceContext, StateCell } from './slice';
import { without, type EntityMap } from './versioned';

export interface SettingsSlice {
  /** Each tracked project's settings, once read. */
  byId: EntityMap<ProjectSettings>;
  /** Why a project's settings could not be read. */
  errorById: EntityMap<string>;
}

export interface SettingsActions {
  updateProjectSettings(projectId: string, settings: Partial<ProjectSettings>): Promise<ProjectSettings>;
}

/**
 * Project settings (concurrency, notifications muted). They have no events: they are read for
 * every project the store tracks, after each reconnect, and after each change made here.
 */
interface SettingsSliceApi extends Slice<SettingsSlice, SettingsActions> {
  /** Starts keeping the project's settings; idempotent. */
  track(projectId: string): void;
  forget(projectId: string): void;
}

export function createSettingsSlice(cell: StateCell<SettingsSlice>, { bridge, isOpen }: SliceContext): SettingsSliceApi {
  const tracked = new Set<string>();

  function put(projectId: string, settings: ProjectSettings): ProjectSettings {
    cell.set((slice) => ({ byId: { ...slice.byId, [projectId]: settings }, errorById: without(slice.errorById, projectId) }));
    return settings;
  }

  function load(projectId: string): void {
    bridge.call('getProjectSettings', { projectId }).then(
      (settings) => tracked.has(projectId) && put(projectId, settings),
      (error: unknown) => tracked.has(projectId) && cell.set((slice) => ({ ...slice, errorById: { ...slice.errorById, [projectId]: errorMessage(error) } })),
    );
  }

  const actions: SettingsActions = {
    updateProjectSettings: async (projectId, settings) => put(projectId, await bridge.call('updateProjectSettings', { projectId, settings })),
  };

  return {
    initial: { byId: {}, errorById: {} },
    actions,
    refetch(): void {
      tracked.forEach(load);
    },
    track(projectId: string): void {
      if (tracked.has(projectId)) return;
      tracked.add(projectId);
      if (isOpen()) load(projectId);
    },
    forget(projectId: string): void {
      tracked.delete(projectId);
      cell.set((slice) => ({ byId: without(slice.byId, projectId), errorById: without(slice.errorById, projectId) }));
    },
  };
}
