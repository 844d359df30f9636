import { FAILURES_BEFORE_PAUSE, type AutomationRun } from '../../../shared/automations';
import { newId } from '../ids';
import type { AutomationStore, StoredAutomation } from '../storage/automationStore';
import type { EventFields } from './eventTemplate';
import { hostTimeZone, instantOfWall, wallTimeAt } from '../time/wallClock';

/** The host's clock, injected so the guards and schedules are tested without waiting. */
export interface Clock {
  now(): number;
  /** Calls `fire` in `ms`; returns what cancels it. */
  setTimer(ms: number, fire: () => void): () => void;
}

export const SYSTEM_CLOCK: Clock = {
  now: () => Date.now(),
  setTimer: (ms, fire) => {
    const timer = setTimeout(fire, ms);
    timer.unref();
    return () => clearTimeout(timer);
  },
};

/** What set an automation off. */
export interface AutomationEvent {
  /** An event sets a rule off once: a second sighting of the same key runs nothing. */
  key: string;
  /** In words, for the history. */
  trigger: string;
  fields: EventFields;
  /** Run now: the person asked, so a paused automation runs too. */
  byPerson?: boolean;
}

/** What an action started: a task (the run ends with it), or something already done (a message posted, an agent started). */
export type StartedWork = { taskId: string } | { agentId: string; done: true };

export interface AutomationActions {
  /** A promise for work that takes a while to start (an agent's worktree): the run stays running until it settles. */
  start(projectId: string, automation: StoredAutomation, event: AutomationEvent): StartedWork | Promise<StartedWork>;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Starts an automation's runs under the guards that keep a rule from running away: one run at a
 * time (the next is recorded as skipped), a daily cap, and a pause after FAILURES_BEFORE_PAUSE
 * failed runs in a row.
 */
export class AutomationRunner {
  constructor(
    private readonly actions: AutomationActions,
    private readonly clock: Clock,
    /** The automation paused itself: it needs the person. */
    private readonly onPaused: (projectId: string, automation: StoredAutomation) => void,
  ) {}

  /** Runs the automation for the event; null when it runs nothing (paused, gone, or the event already answered). */
  fire(projectId: string, store: AutomationStore, automationId: string, event: AutomationEvent): AutomationRun | null {
    const automation = store.get(automationId);
    if (!automation || (!automation.enabled && !event.byPerson)) return null;
    const now = this.clock.now();
    const base = { id: newId('r'), automationId, eventKey: event.key, trigger: event.trigger, taskId: null, agentId: null, startedAt: now };
    const skip = this.whyNotNow(store, automation);
    if (skip !== null) {
      return store.addRun({ ...base, state: 'skipped', reason: skip, endedAt: now }) ? (store.run(base.id) ?? null) : null;
    }
    if (!store.addRun({ ...base, state: 'running', reason: null, endedAt: null })) return null;
    const failed = (error: unknown) => this.end(projectId, store, base.id, 'failed', messageOf(error));
    try {
      const work = this.actions.start(projectId, automation, event);
      if (work instanceof Promise) work.then((started) => this.started(projectId, store, base.id, started)).catch(failed);
      else this.started(projectId, store, base.id, work);
    } catch (error) {
      failed(error);
    }
    return store.run(base.id) ?? null;
  }

  /** Why the automation would skip a run now (its last run still going, its daily cap reached), or null. */
  whyNotNow(store: AutomationStore, automation: StoredAutomation): string | null {
    const now = this.clock.now();
    const running = store.runningRun(automation.id);
    if (running !== undefined) return `the run started at ${new Date(running.startedAt).toISOString()} is still going`;
    const started = store.startedSince(automation.id, startOfDay(now, automation));
    return started >= automation.dailyCap ? `it reached its daily cap of ${automation.dailyCap} run${automation.dailyCap === 1 ? '' : 's'}` : null;
  }

  private started(projectId: string, store: AutomationStore, runId: string, work: StartedWork): void {
    store.setRunWork(runId, 'taskId' in work ? { taskId: work.taskId, agentId: null } : { taskId: null, agentId: work.agentId });
    if ('done' in work) this.end(projectId, store, runId, 'succeeded', null);
  }

  /** A run's task ended: so did the run (one the host's stop interrupted fails, but counts toward no pause). */
  taskEnded(projectId: string, store: AutomationStore, taskId: string, outcome: 'succeeded' | 'failed' | 'interrupted', reason: string): void {
    const run = store.runOfTask(taskId);
    if (!run) return;
    if (outcome === 'succeeded') this.end(projectId, store, run.id, 'succeeded', null);
    else this.end(projectId, store, run.id, 'failed', reason, outcome === 'failed');
  }

  /** Host start: a run whose work never got started (the host stopped on the way) ends as failed. */
  cutOff(projectId: string, store: AutomationStore, runId: string): void {
    this.end(projectId, store, runId, 'failed', 'the host stopped before its work started');
  }

  private end(projectId: string, store: AutomationStore, runId: string, state: 'succeeded' | 'failed', reason: string | null, countsAsFailure = state === 'failed'): void {
    const run = store.run(runId);
    if (run?.state !== 'running') return;
    store.endRun(runId, state, reason, this.clock.now());
    const automation = store.get(run.automationId);
    if (!automation) return;
    if (state === 'failed' && !countsAsFailure) return;
    const failuresInRow = state === 'failed' ? automation.failuresInRow + 1 : 0;
    if (failuresInRow >= FAILURES_BEFORE_PAUSE && automation.enabled) {
      const why = `it failed ${failuresInRow} times in a row (last: ${reason ?? 'no reason given'})`;
      store.setEnabled(automation.id, false, why, failuresInRow);
      this.onPaused(projectId, { ...automation, enabled: false, pausedReason: why, failuresInRow });
    } else {
      store.setFailuresInRow(automation.id, failuresInRow);
    }
  }
}

/** Midnight of today in the automation's time zone (a schedule's own; else this host's). */
function startOfDay(now: number, automation: StoredAutomation): number {
  const timeZone = automation.trigger.kind === 'schedule' ? automation.trigger.timeZone : hostTimeZone();
  return instantOfWall({ ...wallTimeAt(now, timeZone), hour: 0, minute: 0 }, timeZone);
}
