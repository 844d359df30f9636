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

/** A schedule without a time zone is read in this host's (or, in a change, in the one the rule had). */
type NewTrigger = AutomationTrigger | { kind: 'schedule'; cron: string; timeZone?: string | undefined };

export interface NewAutomation {
  projectId: string;
  name: string;
  trigger: NewTrigger;
  action: AutomationAction;
  dailyCap?: number | undefined;
  catchUpMs?: number | undefined;
}

/** What changes of an automation: what is left out stays. */
export interface AutomationChange {
  projectId: string;
  name: string;
  trigger?: NewTrigger | undefined;
  action?: AutomationAction | undefined;
  dailyCap?: number | undefined;
  catchUpMs?: number | undefined;
}

function inTimeZone(trigger: NewTrigger, timeZone: string): AutomationTrigger {
  return trigger.kind === 'schedule' ? { ...trigger, timeZone: trigger.timeZone ?? timeZone } : trigger;
}

export interface UpcomingRun {
  name: string;
  /** When it runs next; null for a rule an event sets off, or a paused one. */
  at: number | null;
  paused: boolean;
  trigger: string;
  action: string;
}

/** The person's side of automations: add, edit, list, pause, resume, remove, run now, history, what runs next. */
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
    const trigger = inTimeZone(input.trigger, hostTimeZone());
    const { action } = input;
    this.checkRule(input.projectId, trigger, action);
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

  /**
   * Changes the rule in place, checked as a new one is: its id, state and runs stay. A changed
   * trigger counts from now: a new schedule never catches up on the times before it, and an
   * issue-opened rule answers only issues opened after the edit.
   */
  async update(change: AutomationChange): Promise<Automation> {
    const store = this.storeOf(change.projectId);
    const automation = this.find(store, change.name);
    const trigger = change.trigger === undefined ? automation.trigger : inTimeZone(change.trigger, automation.trigger.kind === 'schedule' ? automation.trigger.timeZone : hostTimeZone());
    const action = change.action ?? automation.action;
    this.checkRule(change.projectId, trigger, action);
    if (change.trigger !== undefined && GITHUB_TRIGGER_KINDS.has(trigger.kind)) await this.reachGitHub(change.projectId);
    const triggerChanged = JSON.stringify(trigger) !== JSON.stringify(automation.trigger);
    const now = this.clock.now();
    store.update(automation.id, {
      trigger,
      action,
      dailyCap: change.dailyCap ?? automation.dailyCap,
      catchUpMs: change.catchUpMs ?? automation.catchUpMs,
      checkedUntil: triggerChanged ? now : automation.checkedUntil,
      triggerSetAt: triggerChanged ? now : automation.triggerSetAt,
    });
    this.triggers.arm(change.projectId, automation.id);
    this.announcer.changed(change.projectId, automation.id);
    return this.present(change.projectId, store, this.find(store, automation.id));
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

  /** Refuses, in words, a rule that could not run: a cron field that does not parse, a template field its trigger lacks, a missing profile or agent. */
  private checkRule(projectId: string, trigger: AutomationTrigger, action: AutomationAction): void {
    if (trigger.kind === 'schedule') parseCron(trigger.cron, trigger.timeZone);
    if (action.kind === 'task') {
      checkTemplate(action.command, trigger.kind, 'command');
      if (action.owner !== null && !this.stores.get(projectId).agents.byIdOrName(action.owner)) fail('not-found', `There is no agent ${action.owner} in project ${projectId} to own the task.`);
    } else if (action.kind === 'agent') {
      checkTemplate(action.prompt, trigger.kind, 'prompt');
      const known = this.profiles.list().map((profile) => profile.id);
      if (!known.includes(action.profileId)) fail('not-found', `There is no profile ${action.profileId} (profiles: ${known.join(', ')}).`);
    } else {
      checkTemplate(action.text, trigger.kind, 'message');
      if (!this.stores.get(projectId).agents.byIdOrName(action.agent)) fail('not-found', `There is no agent ${action.agent} in project ${projectId}.`);
    }
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
