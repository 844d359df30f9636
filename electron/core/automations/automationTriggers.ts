import { endedWithError, type AgentSession } from '../../../shared/entities/sessions';
import { isTaskFinished, type Task } from '../../../shared/entities/tasks';
import type { ForgeLink } from '../../../shared/forge';
import { describeExit } from '../../common/taskExit';
import type { AutomationStore, StoredAutomation } from '../storage/automationStore';
import { missedRunToCatchUp, nextRunAfter, parseCron } from './cronSchedule';
import type { AutomationRunner, Clock } from './automationRunner';

/** setTimeout's longest wait; a later run is waited for in steps. */
const LONGEST_TIMER_MS = 2 ** 31 - 1;

export interface AutomationProjects {
  /** The projects whose automations run (their stores open). */
  ids(): string[];
  automations(projectId: string): AutomationStore;
  task(projectId: string, taskId: string): Task | undefined;
  /** The last lines of a task's output, for {task.tail}. */
  tail(task: Task): string;
  /** The agent's name, while it is in the project. */
  agentName(projectId: string, agentId: string): string | undefined;
}

function timeOf(instant: number): string {
  return new Date(instant).toISOString().replace(/:\d\d\.\d+Z$/, 'Z');
}

/**
 * Sets automations off: each enabled schedule has a timer for its next run (a run missed while the
 * host was down runs once at start if it is within the catch-up window), and a finished task sets
 * off the rules waiting for its label, and ends the run that started it.
 */
export class AutomationTriggers {
  private readonly timers = new Map<string, () => void>();
  private stopped = false;

  constructor(
    private readonly projects: AutomationProjects,
    private readonly runner: AutomationRunner,
    private readonly clock: Clock,
    private readonly log: (line: string) => void,
  ) {}

  /** Host start: ends the runs whose tasks ended while it was down, catches up missed schedules once, arms every schedule. */
  start(): void {
    for (const projectId of this.projects.ids()) {
      for (const run of this.projects.automations(projectId).allRunning()) {
        const task = run.taskId === null ? undefined : this.projects.task(projectId, run.taskId);
        if (!task && run.agentId === null) this.runner.cutOff(projectId, this.projects.automations(projectId), run.id);
        else if (task && isTaskFinished(task.state)) this.taskChanged(projectId, task);
      }
      for (const automation of this.projects.automations(projectId).list()) this.catchUp(projectId, automation);
      this.armProject(projectId);
    }
  }

  stop(): void {
    this.stopped = true;
    for (const cancel of this.timers.values()) cancel();
    this.timers.clear();
  }

  armProject(projectId: string): void {
    for (const automation of this.projects.automations(projectId).list()) this.arm(projectId, automation.id);
  }

  /** The automation was added, paused, resumed or removed: its timer follows. */
  arm(projectId: string, automationId: string): void {
    this.timers.get(automationId)?.();
    this.timers.delete(automationId);
    if (this.stopped) return;
    const store = this.projects.automations(projectId);
    const automation = store.get(automationId);
    const due = automation && nextScheduledRun(automation, this.clock.now());
    if (!automation || due === null || due === undefined) return;
    const wait = Math.min(Math.max(due - this.clock.now(), 0), LONGEST_TIMER_MS);
    this.timers.set(automationId, this.clock.setTimer(wait, () => this.scheduleDue(projectId, automationId, due)));
  }

  private scheduleDue(projectId: string, automationId: string, due: number): void {
    this.timers.delete(automationId);
    try {
      if (this.clock.now() >= due) {
        const store = this.projects.automations(projectId);
        store.setCheckedUntil(automationId, due);
        this.runner.fire(projectId, store, automationId, { key: `schedule:${due}`, trigger: `schedule ${timeOf(due)}`, fields: {} });
      }
      this.arm(projectId, automationId);
    } catch (error) {
      // A removed project's timer finds no store: its automations are gone with it.
      this.log(`automation ${automationId} of ${projectId} could not run: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  private catchUp(projectId: string, automation: StoredAutomation): void {
    if (automation.trigger.kind !== 'schedule' || !automation.enabled) return;
    const store = this.projects.automations(projectId);
    const now = this.clock.now();
    const missed = missedRunToCatchUp(parseCron(automation.trigger.cron, automation.trigger.timeZone), automation.checkedUntil, now, automation.catchUpMs);
    store.setCheckedUntil(automation.id, now);
    if (missed !== null) {
      this.runner.fire(projectId, store, automation.id, { key: `schedule:${missed}`, trigger: `schedule ${timeOf(missed)}, caught up at start`, fields: {} });
    }
  }

  /** A task changed: a finished one ends its run, and sets off the rules for its label. */
  taskChanged(projectId: string, task: Task): void {
    // Stopping, the host interrupts every task it runs: that is no task's failure.
    if (this.stopped || !isTaskFinished(task.state)) return;
    const store = this.projects.automations(projectId);
    const exit = describeExit(task);
    this.runner.taskEnded(projectId, store, task.id, task.state === 'interrupted' ? 'interrupted' : task.state === 'succeeded' ? 'succeeded' : 'failed', exit);
    // A task the host's stop cut short did not end by itself: it sets off no rule (nor at the next start).
    if (task.label === null || task.state === 'interrupted') return;
    const matching = store.list().filter((automation) => automation.enabled && setsOff(automation, task));
    if (matching.length === 0) return;
    const fields = { 'task.label': task.label, 'task.exitCode': task.exitCode === null ? '' : String(task.exitCode), 'task.tail': this.projects.tail(task) };
    for (const automation of matching) {
      this.runner.fire(projectId, store, automation.id, { key: `task:${task.id}`, trigger: `task ${task.label} ${task.state} (${exit})`, fields });
    }
  }

  /** An agent's session changed: one that ended with an error sets off the agent-failed rules (for it, or for any agent). */
  sessionChanged(projectId: string, session: AgentSession): void {
    if (this.stopped || !endedWithError(session)) return;
    const store = this.projects.automations(projectId);
    const name = this.projects.agentName(projectId, session.agentId) ?? session.agentId;
    const fields = { 'agent.name': name, 'agent.exitCode': session.exitCode === null ? '' : String(session.exitCode), 'agent.reason': session.endReason ?? '' };
    for (const automation of store.list()) {
      const { trigger } = automation;
      if (!automation.enabled || trigger.kind !== 'agent-failed' || (trigger.agent !== null && trigger.agent !== name)) continue;
      this.runner.fire(projectId, store, automation.id, { key: `session:${session.id}`, trigger: `agent ${name} failed (${session.endReason ?? 'exited'})`, fields });
    }
  }

  /** A pull request of an agent changed: changes requested on it set off the changes-requested rules, once per head commit. */
  forgeChanged(projectId: string, link: ForgeLink | null): void {
    const pullRequest = link?.pullRequest;
    if (this.stopped || !pullRequest || pullRequest.reviewDecision !== 'changes-requested' || pullRequest.state === 'merged' || pullRequest.state === 'closed') return;
    const store = this.projects.automations(projectId);
    const fields = { 'pr.number': String(pullRequest.number), 'pr.title': pullRequest.title, 'pr.url': pullRequest.url, 'pr.branch': pullRequest.headBranch };
    for (const automation of store.list()) {
      if (!automation.enabled || automation.trigger.kind !== 'changes-requested') continue;
      this.runner.fire(projectId, store, automation.id, { key: `review:${pullRequest.number}:${pullRequest.headSha}`, trigger: `changes requested on #${pullRequest.number}`, fields });
    }
  }
}

function setsOff(automation: StoredAutomation, task: Task): boolean {
  const { trigger } = automation;
  if (trigger.kind !== 'task-ended' || trigger.label !== task.label) return false;
  return trigger.outcome === 'any' || trigger.outcome === (task.state === 'succeeded' ? 'succeeded' : 'failed');
}

/** A schedule's next run after its last handled one and now; null for an event rule or a paused one. */
export function nextScheduledRun(automation: StoredAutomation, now: number): number | null {
  if (automation.trigger.kind !== 'schedule' || !automation.enabled) return null;
  return nextRunAfter(parseCron(automation.trigger.cron, automation.trigger.timeZone), Math.max(automation.checkedUntil, now));
}
