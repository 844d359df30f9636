import {
  DEFAULT_CATCH_UP_MS,
  DEFAULT_DAILY_CAP,
  type Automation,
  type AutomationAction,
  type AutomationRun,
  type AutomationTrigger,
  describeAction,
  describeTrigger,
  GITHUB_TRIGGER_KINDS,
} from '../../../shared/automations';
import { fail } from '../errors';
import { newId } from '../ids';
import type { ProfileRegistry } from '../profiles/profileRegistry';
import type { ProjectRegistry } from '../projects/projectRegistry';
import type { AutomationStore, StoredAutomation } from '../storage/automationStore';
import type { ProjectStores } from '../storage/projectStores';
import type { AutomationRunner, Clock } from './automationRunner';
import { nextScheduledRun, type AutomationTriggers } from './automationTriggers';
import { nextRuns, parseCron } from './cronSchedule';
import { checkTemplate } from './eventTemplate';
import { hostTimeZone } from '../time/wallClock';
import type { AutomationAnnouncer } from './automationAnnouncer';

export interface NewAutomation {
  projectId: string;
  name: string;
  /** A schedule without a time zone is read in this host's. */
  trigger: AutomationTrigger | { kind: 'schedule'; cron: string; timeZone?: string | undefined };
  action: AutomationAction;
  dailyCap?: number | undefined;
  catchUpMs?: number | undefined;
}

export interface UpcomingRun {
  name: string;
  /** When it runs next; null for a rule an event sets off, or a paused one. */
  at: number | null;
  paused: boolean;
  trigger: string;
  action: string;
}

/** The person's side of automations: add, list, pause, resume, remove, run now, history, what runs next. */
export class AutomationService {
  constructor(
    private readonly projects: ProjectRegistry,
    private readonly stores: ProjectStores,
    private readonly profiles: ProfileRegistry,
    private readonly runner: AutomationRunner,
    private readonly triggers: AutomationTriggers,
    private readonly clock: Clock,
    /** Refuses, in words, a project whose GitHub repository cannot be reached. */
    private readonly reachGitHub: (projectId: string) => Promise<void>,
    private readonly announcer: AutomationAnnouncer,
  ) {}

  async add(input: NewAutomation): Promise<Automation> {
    const store = this.storeOf(input.projectId);
    const trigger: AutomationTrigger = input.trigger.kind === 'schedule' ? { ...input.trigger, timeZone: input.trigger.timeZone ?? hostTimeZone() } : input.trigger;
    if (trigger.kind === 'schedule') parseCron(trigger.cron, trigger.timeZone);
    const action = input.action;
    if (action.kind === 'task') {
      checkTemplate(action.command, trigger.kind, 'command');
      if (action.owner !== null && !this.stores.get(input.projectId).agents.byIdOrName(action.owner)) fail('not-found', `There is no agent ${action.owner} in project ${input.projectId} to own the task.`);
    }
    else if (action.kind === 'agent') {
      checkTemplate(action.prompt, trigger.kind, 'prompt');
      const known = this.profiles.list().map((profile) => profile.id);
      if (!known.includes(action.profileId)) fail('not-found', `There is no profile ${action.profileId} (profiles: ${known.join(', ')}).`);
    } else {
      checkTemplate(action.text, trigger.kind, 'message');
      if (!this.stores.get(input.projectId).agents.byIdOrName(action.agent)) fail('not-found', `There is no agent ${action.agent} in project ${input.projectId}.`);
    }
    if (store.get(input.name)) fail('conflict', `The project already has an automation named ${input.name}.`);
    if (GITHUB_TRIGGER_KINDS.has(trigger.kind)) await this.reachGitHub(input.projectId);
    const id = newId('u');
    const now = this.clock.now();
    store.insert({
      id,
      name: input.name,
      trigger,
      action,
      dailyCap: input.dailyCap ?? DEFAULT_DAILY_CAP,
      catchUpMs: input.catchUpMs ?? DEFAULT_CATCH_UP_MS,
      checkedUntil: now,
      createdAt: now,
    });
    this.triggers.arm(input.projectId, id);
    this.announcer.changed(input.projectId, id);
    return this.present(input.projectId, store, this.find(store, id));
  }

  list(projectId: string): Automation[] {
    const store = this.storeOf(projectId);
    return store.list().map((automation) => this.present(projectId, store, automation));
  }

  history(projectId: string, name: string, limit: number): AutomationRun[] {
    const store = this.storeOf(projectId);
    return store.runs(this.find(store, name).id, limit);
  }

  /** Run now: the person asked, so it runs even while paused (the guards still hold). */
  runNow(projectId: string, name: string): AutomationRun | null {
    const store = this.storeOf(projectId);
    const automation = this.find(store, name);
    return this.runner.fire(projectId, store, automation.id, { key: `now:${newId('r')}`, trigger: 'run now', fields: {}, byPerson: true });
  }

  pause(projectId: string, name: string): Automation {
    return this.setEnabled(projectId, name, false);
  }

  /** Resumes with the count of failures afresh; schedules missed while paused are let go. */
  resume(projectId: string, name: string): Automation {
    return this.setEnabled(projectId, name, true);
  }

  remove(projectId: string, name: string): { name: string } {
    const store = this.storeOf(projectId);
    const automation = this.find(store, name);
    this.announcer.removed(projectId, automation.id, store.remove(automation.id));
    this.triggers.arm(projectId, automation.id);
    return { name: automation.name };
  }

  /** What would run, and when: each schedule's next `count` runs, and the rules events set off. */
  next(projectId: string, count: number): UpcomingRun[] {
    const store = this.storeOf(projectId);
    const now = this.clock.now();
    return store.list().flatMap((automation): UpcomingRun[] => {
      const described = { name: automation.name, paused: !automation.enabled, trigger: describeTrigger(automation.trigger), action: describeAction(automation.action) };
      if (automation.trigger.kind !== 'schedule' || !automation.enabled) return [{ ...described, at: null }];
      const schedule = parseCron(automation.trigger.cron, automation.trigger.timeZone);
      return nextRuns(schedule, Math.max(now, automation.checkedUntil), count).map((at) => ({ ...described, at }));
    });
  }

  private setEnabled(projectId: string, name: string, enabled: boolean): Automation {
    const store = this.storeOf(projectId);
    const automation = this.find(store, name);
    store.setEnabled(automation.id, enabled, null, 0);
    if (enabled) store.setCheckedUntil(automation.id, this.clock.now());
    this.triggers.arm(projectId, automation.id);
    this.announcer.changed(projectId, automation.id);
    return this.present(projectId, store, this.find(store, automation.id));
  }

  private storeOf(projectId: string): AutomationStore {
    this.projects.get(projectId);
    return this.stores.get(projectId).automations;
  }

  private find(store: AutomationStore, name: string): StoredAutomation {
    return store.get(name) ?? fail('not-found', `There is no automation named ${name} in this project.`);
  }

  private present(projectId: string, store: AutomationStore, automation: StoredAutomation): Automation {
    const [last] = store.runs(automation.id, 1);
    return {
      id: automation.id,
      projectId,
      name: automation.name,
      trigger: automation.trigger,
      action: automation.action,
      enabled: automation.enabled,
      pausedReason: automation.pausedReason,
      dailyCap: automation.dailyCap,
      catchUpMs: automation.catchUpMs,
      failuresInRow: automation.failuresInRow,
      nextRunAt: nextScheduledRun(automation, this.clock.now()),
      lastRun: last ? { state: last.state, at: last.startedAt } : null,
      createdAt: automation.createdAt,
    };
  }
}
