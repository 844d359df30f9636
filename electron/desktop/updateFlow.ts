import { countOf } from '../../shared/plural';
import { errorText } from './errorText';

/** What runs in the host, and goes on running while the window restarts into an update. */
export interface RunningWork {
  tasks: number;
  agents: number;
}

/** The version an update event is about (electron-updater's UpdateInfo has more). */
interface VersionInfo {
  version: string;
}

/**
 * The part of electron-updater's AppImageUpdater the flow drives, so the flow runs (and is tested)
 * against a stand-in as well.
 */
export interface Updater {
  autoDownload: boolean;
  autoInstallOnAppQuit: boolean;
  checkForUpdates(): Promise<{ isUpdateAvailable: boolean; downloadPromise?: Promise<unknown> | null } | null>;
  on(event: 'update-available' | 'update-not-available' | 'update-downloaded', listener: (info: VersionInfo) => void): unknown;
  on(event: 'download-progress', listener: (progress: { percent: number }) => void): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
}

export type RestartAnswer = 'restart' | 'later';

/** The question and its two answers, as a dialog shows them. */
export interface RestartQuestion {
  message: string;
  detail: string;
  /** Which answer is the default: "Later" whenever something would be stopped. */
  defaultAnswer: RestartAnswer;
}

/** What the person sees: native dialogs and the window's progress bar in the app. */
export interface UpdatePrompts {
  askToRestart(question: RestartQuestion): Promise<RestartAnswer>;
  /** Only after a check the person asked for. */
  tellUpToDate(currentVersion: string): void;
  tellFailed(message: string): void;
  /** Download progress from 0 to 1, or null when no download runs. */
  showProgress(fraction: number | null): void;
}

export interface UpdateFlowOptions {
  updater: Updater;
  prompts: UpdatePrompts;
  currentVersion: string;
  runningWork(): Promise<RunningWork>;
  /** Installs the downloaded update and starts the new version of the window (the host goes on). */
  restartToInstall(): Promise<void>;
  /** How often automatic checks run (and how long after start the first one does). */
  checkEveryMs: number;
  firstCheckAfterMs: number;
  log(line: string): void;
}

export interface UpdateFlow {
  /** The app setting "Check for updates automatically": starts or stops the periodic checks. */
  setAutomatic(on: boolean): void;
  /** "Check for updates…": checks now, and tells the person the outcome either way. */
  checkNow(): Promise<void>;
  dispose(): void;
}

/**
 * The restart question. A restart into an update restarts the window only: agents and tasks go on
 * in the host, which moves to the new version when the person restarts it (the window offers that,
 * naming what it would stop), so an update never stops work by itself.
 */
export function restartQuestion(version: string, work: RunningWork): RestartQuestion {
  const message = `Drover ${version} is ready to install`;
  if (work.tasks === 0 && work.agents === 0) {
    return { message, detail: 'Drover restarts to finish the update. Later installs it when you quit Drover.', defaultAnswer: 'restart' };
  }
  const one = work.tasks + work.agents === 1;
  const parts = [work.tasks > 0 ? countOf(work.tasks, 'task') : null, work.agents > 0 ? countOf(work.agents, 'agent') : null].filter((part) => part !== null);
  return {
    message,
    detail:
      `${parts.join(' and ')} ${one ? 'is' : 'are'} running. ${one ? 'It keeps' : 'They keep'} running in the Drover host while the window restarts; ` +
      `the host moves to ${version} only when you restart it, which the window offers once it is back. Later installs the update when you quit Drover.`,
    defaultAnswer: 'restart',
  };
}

/**
 * When to check, and what to ask. Automatic checks download a new version in the background and
 * stay quiet when offline; a check the person asked for always says how it went. Nothing restarts
 * without the person's "Restart now", and an update they put off installs when they quit.
 */
export function startUpdateFlow(options: UpdateFlowOptions): UpdateFlow {
  const { updater, prompts, log } = options;
  updater.autoDownload = true;
  // electron-updater installs on quit only if this was set when the download finished; the flow
  // turns it off until the person answers "Later".
  updater.autoInstallOnAppQuit = true;

  let timer: ReturnType<typeof setTimeout> | undefined;
  let automatic = false;
  let asking = false;
  let disposed = false;
  /** Set while a check the person asked for is under way: its download's end is theirs to hear. */
  let manualCheck = false;
  const putOff = new Set<string>();

  updater.on('download-progress', ({ percent }) => prompts.showProgress(Math.max(0, Math.min(1, percent / 100))));
  updater.on('error', (error) => {
    prompts.showProgress(null);
    log(`update: ${errorText(error)}`);
  });
  updater.on('update-available', ({ version }) => log(`update: downloading Drover ${version}`));
  updater.on('update-downloaded', ({ version }) => {
    prompts.showProgress(null);
    const askedFor = manualCheck;
    manualCheck = false;
    // An update put off is not asked about again on every automatic check, only when asked for.
    if (!askedFor && putOff.has(version)) return;
    updater.autoInstallOnAppQuit = false;
    void ask(version);
  });

  async function ask(version: string): Promise<void> {
    if (asking || disposed) return;
    asking = true;
    try {
      const answer = await prompts.askToRestart(restartQuestion(version, await options.runningWork()));
      if (answer === 'restart') {
        log(`update: restarting into Drover ${version}`);
        await options.restartToInstall();
        return;
      }
      putOff.add(version);
      updater.autoInstallOnAppQuit = true;
    } catch (error) {
      prompts.tellFailed(`Could not install the update: ${errorText(error)}`);
    } finally {
      asking = false;
    }
  }

  async function check(manual: boolean): Promise<void> {
    manualCheck ||= manual;
    try {
      const result = await updater.checkForUpdates();
      if (!result?.isUpdateAvailable) {
        if (manual) {
          manualCheck = false;
          prompts.tellUpToDate(options.currentVersion);
        }
        return;
      }
      // Download failures are reported through 'error' (logged); a person who asked hears of them.
      await result.downloadPromise?.catch((error: unknown) => {
        if (manual) prompts.tellFailed(`Could not download the update: ${errorText(error)}`);
      });
    } catch (error) {
      if (manual) {
        manualCheck = false;
        prompts.tellFailed(`Could not check for updates: ${errorText(error)}`);
      }
    }
  }

  function schedule(delayMs: number): void {
    clearTimeout(timer);
    timer = setTimeout(() => {
      if (!automatic || disposed) return;
      void check(false).finally(() => {
        if (automatic && !disposed) schedule(options.checkEveryMs);
      });
    }, delayMs);
  }

  return {
    setAutomatic(on) {
      if (on === automatic) return;
      automatic = on;
      if (on) schedule(options.firstCheckAfterMs);
      else clearTimeout(timer);
    },
    checkNow: () => check(true),
    dispose() {
      disposed = true;
      automatic = false;
      clearTimeout(timer);
    },
  };
}
