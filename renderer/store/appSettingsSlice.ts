import type { AppSettings } from '../../shared/appSettings';
import type { CommandLineToolInstall } from '../../shared/commandLineTool';
import type { AppSettingsChanged } from '../../shared/events';
import { loadFailed, reloading, type Loadable, type Slice, type SliceContext, type StateCell } from './slice';
import { loadThroughGate, SnapshotGate } from './snapshotGate';

export interface AppSettingsSlice extends Loadable {
  /** `null` until the first snapshot landed. */
  settings: AppSettings | null;
  seq: number;
}

export interface AppSettingsActions {
  /** Starts keeping the app settings loaded (the Settings page, the palette). */
  trackAppSettings(): void;
  updateAppSettings(change: Partial<AppSettings>): Promise<AppSettings>;
  /** Holds every wake of the account the agent's CLI spends, in every project, until resumed. */
  pauseAgentAccount(agentId: string): Promise<void>;
  resumeAccount(key: string): Promise<void>;
  /** "Install command line tool" (for the Settings page and the command palette). */
  installCommandLineTool(): Promise<CommandLineToolInstall>;
}

/** The app settings: `getAppSettings`, then `appSettingsChanged` events; loaded once someone needs them. */
export function createAppSettingsSlice(cell: StateCell<AppSettingsSlice>, { bridge, isOpen }: SliceContext): Slice<AppSettingsSlice, AppSettingsActions> {
  const gate = new SnapshotGate<AppSettingsChanged>();
  let tracked = false;

  function put(seq: number, settings: AppSettings): AppSettings {
    cell.set((slice) => (seq < slice.seq ? slice : { status: 'ready', error: null, seq, settings }));
    return cell.get().settings ?? settings;
  }

  function load(): void {
    void loadThroughGate(gate, () => bridge.call('getAppSettings', {}), {
      loading: () => cell.set(reloading),
      followed: () => tracked,
      loaded: (snapshot) => cell.set(() => ({ status: 'ready', error: null, seq: snapshot.seq, settings: snapshot.settings })),
      failed: (message) => cell.set((slice) => loadFailed(slice, message)),
      apply: (event) => put(event.seq, event.settings),
    });
  }

  const actions: AppSettingsActions = {
    trackAppSettings() {
      if (tracked) return;
      tracked = true;
      if (isOpen()) load();
    },
    updateAppSettings: async (change) => {
      const updated = await bridge.call('updateAppSettings', { settings: change });
      return put(updated.seq, updated.settings);
    },
    // The settings follow by their event: what changed is announced to every window at once.
    pauseAgentAccount: (agentId) => bridge.call('pauseAgentAccount', { agentId }).then(() => undefined),
    resumeAccount: (key) => bridge.call('resumeAccount', { key }).then(() => undefined),
    installCommandLineTool: () => bridge.call('installCommandLineTool', {}),
  };

  return {
    initial: { status: 'loading', error: null, settings: null, seq: 0 },
    actions,
    refetch() {
      if (tracked) load();
    },
    onEvent(event) {
      if (event.name === 'appSettingsChanged' && gate.admit(event)) put(event.seq, event.settings);
    },
  };
}
