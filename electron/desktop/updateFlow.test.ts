import { EventEmitter } from 'node:events';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { restartQuestion, startUpdateFlow, type RestartAnswer, type RestartQuestion, type RunningWork, type UpdateFlow, type Updater } from './updateFlow';

type CheckResult = Awaited<ReturnType<Updater['checkForUpdates']>>;

/** Behaves as electron-updater does towards its caller: events, then the check's promise. */
class StandInUpdater extends EventEmitter implements Updater {
  autoDownload = false;
  autoInstallOnAppQuit = false;
  checks = 0;
  /** What the next check finds: a version to download, nothing, or a failure. */
  next: { version: string } | 'nothing' | Error = 'nothing';

  async checkForUpdates(): Promise<CheckResult> {
    this.checks += 1;
    const next = this.next;
    if (next instanceof Error) {
      this.emit('error', next);
      throw next;
    }
    if (next === 'nothing') return { isUpdateAvailable: false };
    this.emit('update-available', next);
    const downloadPromise = Promise.resolve().then(() => {
      this.emit('download-progress', { percent: 50 });
      this.emit('update-downloaded', next);
    });
    return { isUpdateAvailable: true, downloadPromise };
  }
}

const HOUR = 60 * 60 * 1000;

describe('the update flow', () => {
  let updater: StandInUpdater;
  let flow: UpdateFlow;
  let work: RunningWork;
  let answer: RestartAnswer;
  const asked: RestartQuestion[] = [];
  const told: string[] = [];
  const progress: (number | null)[] = [];
  const restarts = vi.fn(async () => {});

  beforeEach(() => {
    vi.useFakeTimers();
    updater = new StandInUpdater();
    work = { tasks: 0, agents: 0 };
    answer = 'later';
    asked.length = 0;
    told.length = 0;
    progress.length = 0;
    restarts.mockClear();
    flow = startUpdateFlow({
      updater,
      prompts: {
        askToRestart: async (question) => {
          asked.push(question);
          return answer;
        },
        tellUpToDate: (version) => told.push(`up to date: ${version}`),
        tellFailed: (message) => told.push(`failed: ${message}`),
        showProgress: (fraction) => progress.push(fraction),
      },
      currentVersion: '1.0.0',
      runningWork: async () => work,
      restartToInstall: restarts,
      checkEveryMs: 4 * HOUR,
      firstCheckAfterMs: 30_000,
      log: () => {},
    });
  });
  afterEach(() => {
    flow.dispose();
    vi.useRealTimers();
  });

  it('checks a while after start and then every few hours, only while the setting is on', async () => {
    expect(updater.autoDownload).toBe(true);
    await vi.advanceTimersByTimeAsync(HOUR);
    expect(updater.checks).toBe(0);

    flow.setAutomatic(true);
    await vi.advanceTimersByTimeAsync(29_000);
    expect(updater.checks).toBe(0);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(updater.checks).toBe(1);
    await vi.advanceTimersByTimeAsync(4 * HOUR);
    expect(updater.checks).toBe(2);

    flow.setAutomatic(false);
    await vi.advanceTimersByTimeAsync(12 * HOUR);
    expect(updater.checks).toBe(2);
  });

  it('stays quiet when an automatic check finds nothing or cannot reach GitHub', async () => {
    flow.setAutomatic(true);
    await vi.advanceTimersByTimeAsync(30_000);
    updater.next = new Error('getaddrinfo ENOTFOUND github.com');
    await vi.advanceTimersByTimeAsync(4 * HOUR);
    expect(updater.checks).toBe(2);
    expect([asked, told]).toEqual([[], []]);
  });

  it('asks once the new version is downloaded, and restarts into it on "Restart now"', async () => {
    updater.next = { version: '1.1.0' };
    answer = 'restart';
    flow.setAutomatic(true);
    await vi.advanceTimersByTimeAsync(30_000);
    expect(asked).toEqual([{ message: 'Drover 1.1.0 is ready to install', detail: expect.stringContaining('Drover restarts'), defaultAnswer: 'restart' }]);
    expect(restarts).toHaveBeenCalledTimes(1);
    expect(progress).toEqual([0.5, null]);
  });

  it('never restarts on its own: running work is named as going on, "Later" installs on quit and is not asked again until asked for', async () => {
    updater.next = { version: '1.1.0' };
    work = { tasks: 2, agents: 1 };
    flow.setAutomatic(true);
    await vi.advanceTimersByTimeAsync(30_000);
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({ defaultAnswer: 'restart', detail: expect.stringMatching(/^2 tasks and 1 agent are running\. They keep running in the Drover host while the window restarts/) });
    expect(restarts).not.toHaveBeenCalled();
    expect(updater.autoInstallOnAppQuit).toBe(true);

    await vi.advanceTimersByTimeAsync(4 * HOUR);
    expect(updater.checks).toBe(2);
    expect(asked).toHaveLength(1);

    await flow.checkNow();
    expect(asked).toHaveLength(2);
    expect(restarts).not.toHaveBeenCalled();
  });

  it('does not install on quit while the question is open', async () => {
    updater.next = { version: '1.1.0' };
    let answerNow: (value: RestartAnswer) => void = () => {};
    flow.dispose();
    flow = startUpdateFlow({
      updater,
      prompts: { askToRestart: () => new Promise((resolve) => (answerNow = resolve)), tellUpToDate: () => {}, tellFailed: () => {}, showProgress: () => {} },
      currentVersion: '1.0.0',
      runningWork: async () => work,
      restartToInstall: restarts,
      checkEveryMs: 4 * HOUR,
      firstCheckAfterMs: 0,
      log: () => {},
    });
    await flow.checkNow();
    expect(updater.autoInstallOnAppQuit).toBe(false);
    answerNow('later');
    await vi.advanceTimersByTimeAsync(0);
    expect(updater.autoInstallOnAppQuit).toBe(true);
  });

  it('tells the person how a check they asked for went', async () => {
    await flow.checkNow();
    updater.next = new Error('HttpError: 404');
    await flow.checkNow();
    expect(told).toEqual(['up to date: 1.0.0', 'failed: Could not check for updates: HttpError: 404']);
  });

  it('words the question for one task, one agent or both', () => {
    expect(restartQuestion('2.0.0', { tasks: 1, agents: 0 }).detail).toBe(
      '1 task is running. It keeps running in the Drover host while the window restarts; the host moves to 2.0.0 only when you restart it, which the window offers once it is back. Later installs the update when you quit Drover.',
    );
    expect(restartQuestion('2.0.0', { tasks: 0, agents: 3 }).detail).toMatch(/^3 agents are running\. They keep running/);
  });
});
