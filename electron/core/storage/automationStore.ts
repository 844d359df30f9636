import {
  AutomationActionSchema,
  AutomationTriggerSchema,
  type AutomationAction,
  type AutomationNotice,
  type AutomationRun,
  type AutomationRunState,
  type AutomationTrigger,
} from '../../../shared/automations';
import type { SeqCounter } from './seqCounter';
import type { SqliteDatabase } from './sqlite';

/** An automation as stored: what the host needs to run it (its next run and last run are worked out). */
export interface StoredAutomation {
  id: string;
  name: string;
  trigger: AutomationTrigger;
  action: AutomationAction;
  enabled: boolean;
  pausedReason: string | null;
  dailyCap: number;
  catchUpMs: number;
  failuresInRow: number;
  checkedUntil: number;
  /** When it got its trigger: made, or edited to another (an issue-opened rule answers the issues opened since). */
  triggerSetAt: number;
  createdAt: number;
  seq: number;
}

interface AutomationRow {
  id: string;
  name: string;
  trigger: string;
  action: string;
  enabled: number;
  paused_reason: string | null;
  daily_cap: number;
  catch_up_ms: number;
  failures_in_row: number;
  checked_until: number;
  trigger_set_at: number | null;
  created_at: number;
  seq: number;
}

interface RunRow {
  id: string;
  automation_id: string;
  trigger: string;
  state: AutomationRunState;
  task_id: string | null;
  agent_id: string | null;
  reason: string | null;
  started_at: number;
  ended_at: number | null;
}

export type NewRun = Pick<AutomationRun, 'id' | 'automationId' | 'trigger' | 'state' | 'taskId' | 'agentId' | 'reason' | 'startedAt' | 'endedAt'> & { eventKey: string };

/** The HISTORY_KEPT newest runs of each automation are kept. */
const HISTORY_KEPT = 500;

/** The project's automations and the history of their runs. */
export class AutomationStore {
  private readonly statements;

  constructor(
    private readonly db: SqliteDatabase,
    private readonly seq: SeqCounter,
  ) {
    this.statements = {
      list: db.prepare<[], AutomationRow>('SELECT * FROM automations ORDER BY created_at, rowid'),
      byId: db.prepare<[string], AutomationRow>('SELECT * FROM automations WHERE id = ?'),
      byName: db.prepare<[string], AutomationRow>('SELECT * FROM automations WHERE name = ?'),
      insert: db.prepare(
        `INSERT INTO automations (id, name, trigger, action, enabled, daily_cap, catch_up_ms, checked_until, trigger_set_at, created_at, seq)
         VALUES (@id, @name, @trigger, @action, 1, @dailyCap, @catchUpMs, @checkedUntil, @createdAt, @createdAt, @seq)`,
      ),
      update: db.prepare(
        'UPDATE automations SET trigger = @trigger, action = @action, daily_cap = @dailyCap, catch_up_ms = @catchUpMs, checked_until = @checkedUntil, trigger_set_at = @triggerSetAt, seq = @seq WHERE id = @id',
      ),
      setEnabled: db.prepare('UPDATE automations SET enabled = @enabled, paused_reason = @pausedReason, failures_in_row = @failuresInRow, seq = @seq WHERE id = @id'),
      setFailures: db.prepare('UPDATE automations SET failures_in_row = @failuresInRow, seq = @seq WHERE id = @id'),
      setCheckedUntil: db.prepare('UPDATE automations SET checked_until = @checkedUntil, seq = @seq WHERE id = @id'),
      remove: db.prepare('DELETE FROM automations WHERE id = ?'),
      insertRun: db.prepare(
        `INSERT INTO automation_runs (id, automation_id, event_key, trigger, state, task_id, agent_id, reason, started_at, ended_at, seq)
         VALUES (@id, @automationId, @eventKey, @trigger, @state, @taskId, @agentId, @reason, @startedAt, @endedAt, @seq)
         ON CONFLICT (automation_id, event_key) DO NOTHING`,
      ),
      endRun: db.prepare('UPDATE automation_runs SET state = @state, reason = @reason, ended_at = @endedAt, seq = @seq WHERE id = @id'),
      setRunWork: db.prepare('UPDATE automation_runs SET task_id = @taskId, agent_id = @agentId, seq = @seq WHERE id = @id'),
      runs: db.prepare<[string, number], RunRow>('SELECT * FROM automation_runs WHERE automation_id = ? ORDER BY started_at DESC, rowid DESC LIMIT ?'),
      run: db.prepare<[string], RunRow>('SELECT * FROM automation_runs WHERE id = ?'),
      answered: db.prepare<[string, string], number>('SELECT count(*) FROM automation_runs WHERE automation_id = ? AND event_key = ?').pluck(),
      running: db.prepare<[string], RunRow>("SELECT * FROM automation_runs WHERE automation_id = ? AND state = 'running'"),
      allRunning: db.prepare<[], RunRow>("SELECT * FROM automation_runs WHERE state = 'running'"),
      runOfTask: db.prepare<[string], RunRow>("SELECT * FROM automation_runs WHERE task_id = ? AND state = 'running'"),
      startedSince: db.prepare<[string, number], number>("SELECT count(*) FROM automation_runs WHERE automation_id = ? AND state != 'skipped' AND started_at >= ?").pluck(),
      beyond: db.prepare<[string, string, number]>(
        'DELETE FROM automation_runs WHERE automation_id = ? AND rowid IN (SELECT rowid FROM automation_runs WHERE automation_id = ? ORDER BY started_at DESC, rowid DESC LIMIT -1 OFFSET ?)',
      ),
    };
  }

  list(): StoredAutomation[] {
    return this.statements.list.all().map(toAutomation);
  }

  get(idOrName: string): StoredAutomation | undefined {
    const row = this.statements.byId.get(idOrName) ?? this.statements.byName.get(idOrName);
    return row && toAutomation(row);
  }

  insert(automation: Pick<StoredAutomation, 'id' | 'name' | 'trigger' | 'action' | 'dailyCap' | 'catchUpMs' | 'checkedUntil' | 'createdAt'>): void {
    this.statements.insert.run({ ...automation, trigger: JSON.stringify(automation.trigger), action: JSON.stringify(automation.action), seq: this.seq.next() });
  }

  /** Changes its rule; its state, failures in a row and runs stay. */
  update(id: string, rule: Pick<StoredAutomation, 'trigger' | 'action' | 'dailyCap' | 'catchUpMs' | 'checkedUntil' | 'triggerSetAt'>): void {
    this.statements.update.run({ id, ...rule, trigger: JSON.stringify(rule.trigger), action: JSON.stringify(rule.action), seq: this.seq.next() });
  }

  /** Pauses or resumes; resuming starts the count of failures in a row afresh. */
  setEnabled(id: string, enabled: boolean, pausedReason: string | null, failuresInRow: number): void {
    this.statements.setEnabled.run({ id, enabled: enabled ? 1 : 0, pausedReason, failuresInRow, seq: this.seq.next() });
  }

  setFailuresInRow(id: string, failuresInRow: number): void {
    this.statements.setFailures.run({ id, failuresInRow, seq: this.seq.next() });
  }

  setCheckedUntil(id: string, checkedUntil: number): void {
    this.statements.setCheckedUntil.run({ id, checkedUntil, seq: this.seq.next() });
  }

  /** Removes the automation and its runs; returns the seq its removal is announced with. */
  remove(id: string): number {
    this.statements.remove.run(id);
    return this.seq.next();
  }

  /** Each automation as the work state holds it. */
  notices(projectId: string): AutomationNotice[] {
    return this.list().map((automation) => noticeOf(projectId, automation));
  }

  /** Records a run; false when this automation already answered the event. */
  addRun(run: NewRun): boolean {
    const added = this.statements.insertRun.run({ ...run, seq: this.seq.next() }).changes > 0;
    if (added) this.statements.beyond.run(run.automationId, run.automationId, HISTORY_KEPT);
    return added;
  }

  setRunWork(id: string, work: { taskId: string | null; agentId: string | null }): void {
    this.statements.setRunWork.run({ id, ...work, seq: this.seq.next() });
  }

  endRun(id: string, state: Exclude<AutomationRunState, 'running'>, reason: string | null, endedAt: number): void {
    this.statements.endRun.run({ id, state, reason, endedAt, seq: this.seq.next() });
  }

  /** Newest first. */
  runs(automationId: string, limit: number): AutomationRun[] {
    return this.statements.runs.all(automationId, limit).map(toRun);
  }

  /** Whether the automation already answered the event. */
  answered(automationId: string, eventKey: string): boolean {
    return (this.statements.answered.get(automationId, eventKey) ?? 0) > 0;
  }

  run(id: string): AutomationRun | undefined {
    const row = this.statements.run.get(id);
    return row && toRun(row);
  }

  runningRun(automationId: string): AutomationRun | undefined {
    const row = this.statements.running.get(automationId);
    return row && toRun(row);
  }

  allRunning(): AutomationRun[] {
    return this.statements.allRunning.all().map(toRun);
  }

  runOfTask(taskId: string): AutomationRun | undefined {
    const row = this.statements.runOfTask.get(taskId);
    return row && toRun(row);
  }

  /** How many runs it started (not skipped) since `since`. */
  startedSince(automationId: string, since: number): number {
    return this.statements.startedSince.get(automationId, since) ?? 0;
  }
}

function toAutomation(row: AutomationRow): StoredAutomation {
  return {
    id: row.id,
    name: row.name,
    trigger: AutomationTriggerSchema.parse(JSON.parse(row.trigger)),
    action: AutomationActionSchema.parse(JSON.parse(row.action)),
    enabled: row.enabled === 1,
    pausedReason: row.paused_reason,
    dailyCap: row.daily_cap,
    catchUpMs: row.catch_up_ms,
    failuresInRow: row.failures_in_row,
    checkedUntil: row.checked_until,
    triggerSetAt: row.trigger_set_at ?? row.created_at,
    createdAt: row.created_at,
    seq: row.seq,
  };
}

export function noticeOf(projectId: string, automation: StoredAutomation): AutomationNotice {
  return { id: automation.id, projectId, name: automation.name, enabled: automation.enabled, pausedReason: automation.pausedReason, seq: automation.seq };
}

function toRun(row: RunRow): AutomationRun {
  return {
    id: row.id,
    automationId: row.automation_id,
    trigger: row.trigger,
    state: row.state,
    taskId: row.task_id,
    agentId: row.agent_id,
    reason: row.reason,
    startedAt: row.started_at,
    endedAt: row.ended_at,
  };
}
