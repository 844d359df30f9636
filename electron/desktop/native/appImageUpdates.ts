import { app, type BrowserWindow } from 'electron';
import { AppImageUpdater } from 'electron-updater';
import { refreshCommandLineTool } from '../../core/commandLineTool/commandLineTool';
import { commandLineToolSource, type CliLocation } from '../distribution';
import { errorText } from '../errorText';
import type { HostSession } from '../hostSession';
import { startUpdateFlow, type UpdateFlow } from '../updateFlow';
import { showError, updatePrompts } from './desktopDialogs';

const HOUR_MS = 60 * 60 * 1000;

/** What the desktop app's parts work with: the link to the host, where the CLI is, the window, the log. */
export interface DesktopContext {
  host: HostSession;
  cli: CliLocation;
  window(): BrowserWindow | null;
  log(line: string): void;
}

/**
 * The AppImage's self-update from the GitHub releases (resources/app-update.yml, written by
 * electron-builder), driven by the update flow: checks every few hours while the setting is on,
 * asks before restarting, and keeps an installed `drover` launcher pointing at the AppImage when
 * an update renames it (Drover-1.2.0-x86_64.AppImage becomes Drover-1.3.0-x86_64.AppImage).
 */
export function startAppImageUpdates({ host, cli, window, log }: DesktopContext): UpdateFlow {
  const updater = new AppImageUpdater();
  updater.logger = {
    info: (message: unknown) => log(`updater: ${String(message)}`),
    warn: (message: unknown) => log(`updater warning: ${String(message)}`),
    error: (message: unknown) => log(`updater error: ${String(message)}`),
  };
  updater.on('appimage-filename-updated', (appImage: string) => {
    try {
      if (refreshCommandLineTool(commandLineToolSource({ kind: 'appimage', appImage }, cli), process.env)) log(`the drover launcher now runs ${appImage}`);
    } catch (error) {
      log(`could not point the drover launcher at ${appImage}: ${errorText(error)}`);
    }
  });

  /**
   * The new version of the window starts before this one has exited, so this one first lets go of
   * the single-instance lock. The host goes on (agents and tasks with it); the new window meets it
   * and offers to restart it into the new version.
   */
  async function restartToInstall(): Promise<void> {
    host.close();
    app.releaseSingleInstanceLock();
    let failure: unknown = null;
    const noteFailure = (error: unknown) => (failure = error);
    // Installing is synchronous: a failure is reported (as 'error') before quitAndInstall returns.
    updater.once('error', noteFailure);
    updater.quitAndInstall(false, true);
    updater.off('error', noteFailure);
    if (failure !== null) {
      await showError(window(), 'Could not install the update', `${errorText(failure)}\n\nYour agents and tasks go on in the Drover host. Start Drover again to see them.`);
      app.quit();
    }
  }

  return startUpdateFlow({
    updater,
    prompts: updatePrompts(window),
    currentVersion: app.getVersion(),
    runningWork: async () => {
      const { running } = await host.call('getHostStatus', {});
      return { tasks: running.tasks.length, agents: running.agents.length };
    },
    restartToInstall,
    checkEveryMs: 4 * HOUR_MS,
    firstCheckAfterMs: 30_000,
    log,
  });
}
