import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AutomationAction, AutomationTrigger } from '../../../shared/automations';
import type { Task } from '../../../shared/entities/tasks';
import type { AgentSession } from '../../../shared/entities/sessions';
import type { ForgeLink } from '../../../shared/forge';
import { makeTempDir, removeDir } from '../../../test-support/tempDir';
import { AutomationStore, type StoredAutomation } from '../storage/automationStore';
import { PROJECT_MIGRATIONS } from '../storage/projectSchema';
import { SeqCounter } from '../storage/seqCounter';
import { openDatabase, type SqliteDatabase } from '../storage/sqlite';
import { AutomationRunner, type AutomationEvent, type Clock } from './automationRunner';
import { AutomationTriggers } from './automationTriggers';

const PROJECT = 'p-test00';
const MINUTE = 60_000;

/** A clock whose time moves only when the test moves it, firing the timers that fall due. */
class TestClock implements Clock {
  private timers: { at: number; fire: () => void }[] = [];
  constructor(private time: number) {}
  now(): number {
    return this.time;
  }
  setTimer(ms: number, fire: () => void): () => void {
    const timer = { at: this.time + ms, fire };
    this.timers.push(timer);
    return () => {
      this.timers = this.timers.filter((other) => other !== timer);
    };
  }
  advanceTo(instant: number): void {
    for (;;) {
      const due = this.timers.filter((timer) => timer.at <= instant).sort((a, b) => a.at - b.at)[0];
      if (!due) break;
      this.timers = this.timers.filter((timer) => timer !== due);
      this.time = due.at;
      due.fire();
    }
    this.time = instant;
  }
}

describe('automation guards', () => {
  let dir: string;
  let db: SqliteDatabase;
  let store: AutomationStore;
  let clock: TestClock;
  let started: { automation: string; event: AutomationEvent }[];
  let failStarts: boolean;
  let slowStart: Promise<{ agentId: string; done: true }> | null;
  let paused: string[];
  let runner: AutomationRunner;
  let triggers: AutomationTriggers;
  let taskCount: number;

  const add = (name: string, trigger: AutomationTrigger, fields: Partial<StoredAutomation> = {}) => {
    const action: AutomationAction = { kind: 'task', command: 'true', cwd: null, owner: null };
    const id = `u-${name.padEnd(6, '0')}`;
    store.insert({ id, name, trigger, action, dailyCap: 48, catchUpMs: 60 * MINUTE, checkedUntil: clock.now(), createdAt: clock.now(), ...fields });
    return id;
  };
  const everyMinute: AutomationTrigger = { kind: 'schedule', cron: '* * * * *', timeZone: 'UTC' };
  const manual = (key: string): AutomationEvent => ({ key, trigger: 'run now', fields: {}, byPerson: true });
  const finishTask = (taskId: string, state: 'succeeded' | 'failed' | 'interrupted', label: string | null = null, exitCode = state === 'succeeded' ? 0 : 1) =>
    triggers.taskChanged(PROJECT, { id: taskId, projectId: PROJECT, label, state, exitCode, signal: null } as Task);

  beforeEach(() => {
    dir = makeTempDir();
    db = openDatabase(path.join(dir, 'state.sqlite'), { migrations: PROJECT_MIGRATIONS, description: 'test' });
    store = new AutomationStore(db, new SeqCounter(0));
    clock = new TestClock(Date.parse('2026-01-05T10:00:10Z'));
    started = [];
    failStarts = false;
    slowStart = null;
    paused = [];
    taskCount = 0;
    runner = new AutomationRunner(
      {
        start: (_projectId, automation, event) => {
          if (failStarts) throw new Error('the folder is gone');
          if (slowStart) return slowStart;
          started.push({ automation: automation.name, event });
          return { taskId: `t-task${String(++taskCount).padStart(4, '0')}` };
        },
      },
      clock,
      (_projectId, automation) => paused.push(`${automation.name}: ${automation.pausedReason}`),
    );
    triggers = new AutomationTriggers(
      { ids: () => [PROJECT], automations: () => store, task: () => undefined, tail: () => 'last lines', agentName: (_projectId, agentId) => (agentId === 'a-alpha001' ? 'alpha' : undefined) },
      runner,
      clock,
      () => {},
    );
  });
  afterEach(() => {
    triggers.stop();
    db.close();
    removeDir(dir);
  });

  it('runs a schedule at each due minute, and skips a run while the last one is still going', () => {
    const id = add('nightly', everyMinute);
    triggers.start();
    clock.advanceTo(Date.parse('2026-01-05T10:01:30Z'));
    expect(started.map((start) => start.event.trigger)).toEqual(['schedule 2026-01-05T10:01Z']);
    clock.advanceTo(Date.parse('2026-01-05T10:02:30Z'));
    expect(started).toHaveLength(1);
    const [skipped, running] = store.runs(id, 10);
    expect(skipped).toMatchObject({ state: 'skipped', trigger: 'schedule 2026-01-05T10:02Z', reason: expect.stringContaining('is still going') });
    expect(running).toMatchObject({ state: 'running', taskId: 't-task0001' });
    finishTask('t-task0001', 'succeeded');
    clock.advanceTo(Date.parse('2026-01-05T10:03:30Z'));
    expect(store.runs(id, 10).map((run) => run.state)).toEqual(['running', 'skipped', 'succeeded']);
  });

  it('runs nothing for a paused automation', () => {
    const id = add('nightly', everyMinute);
    store.setEnabled(id, false, null, 0);
    triggers.start();
    clock.advanceTo(Date.parse('2026-01-05T10:05:00Z'));
    finishTask('t-other001', 'failed', 'build');
    expect(started).toEqual([]);
    expect(store.runs(id, 10)).toEqual([]);
  });

  it('skips runs past the daily cap, and counts afresh the next day in its time zone', () => {
    const id = add('capped', { kind: 'schedule', cron: '0 * * * *', timeZone: 'America/New_York' }, { dailyCap: 2 });
    for (let n = 1; n <= 3; n++) {
      runner.fire(PROJECT, store, id, manual(`now:${n}`));
      finishTask(`t-task${String(n).padStart(4, '0')}`, 'succeeded');
    }
    expect(started).toHaveLength(2);
    expect(store.runs(id, 1)[0]).toMatchObject({ state: 'skipped', reason: 'it reached its daily cap of 2 runs' });
    // Midnight in New York is 05:00 UTC.
    clock.advanceTo(Date.parse('2026-01-06T04:59:00Z'));
    runner.fire(PROJECT, store, id, manual('now:4'));
    expect(started).toHaveLength(2);
    clock.advanceTo(Date.parse('2026-01-06T05:00:00Z'));
    runner.fire(PROJECT, store, id, manual('now:5'));
    expect(started).toHaveLength(3);
  });

  it('pauses itself after three failed runs in a row and says it needs the person', () => {
    const id = add('flaky', { kind: 'task-ended', label: 'build', outcome: 'failed' });
    runner.fire(PROJECT, store, id, manual('now:1'));
    finishTask('t-task0001', 'failed');
    runner.fire(PROJECT, store, id, manual('now:2'));
    finishTask('t-task0002', 'succeeded');
    expect(store.get(id)?.failuresInRow).toBe(0);
    failStarts = true;
    for (let n = 3; n <= 5; n++) runner.fire(PROJECT, store, id, manual(`now:${n}`));
    expect(store.get(id)).toMatchObject({ enabled: false, failuresInRow: 3 });
    expect(paused).toEqual(['flaky: it failed 3 times in a row (last: the folder is gone)']);
    failStarts = false;
    finishTask('t-other001', 'failed', 'build');
    expect(started).toHaveLength(2);
  });

  it('catches up a schedule missed while the host was down once, within the window, never as a burst', () => {
    const id = add('hourly', { kind: 'schedule', cron: '0 * * * *', timeZone: 'UTC' }, { checkedUntil: Date.parse('2026-01-05T06:30:00Z') });
    triggers.start();
    expect(started.map((start) => start.event.trigger)).toEqual(['schedule 2026-01-05T10:00Z, caught up at start']);
    expect(store.get(id)?.checkedUntil).toBe(clock.now());
    // The next start finds nothing more to catch up.
    triggers.stop();
    new AutomationTriggers({ ids: () => [PROJECT], automations: () => store, task: () => undefined, tail: () => '', agentName: () => undefined }, runner, clock, () => {}).start();
    expect(started).toHaveLength(1);
  });

  it('lets a missed schedule go when it is later than the catch-up window', () => {
    add('daily', { kind: 'schedule', cron: '0 9 * * *', timeZone: 'UTC' }, { checkedUntil: Date.parse('2026-01-05T08:00:00Z'), catchUpMs: 30 * MINUTE });
    triggers.start();
    expect(started).toEqual([]);
  });

  it('keeps a run that starts slowly (an agent) running until its start settles, and ends one a restart cut off', async () => {
    const id = add('agent', everyMinute);
    let settle: (started: { agentId: string; done: true }) => void = () => {};
    slowStart = new Promise((resolve) => (settle = resolve));
    expect(runner.fire(PROJECT, store, id, manual('now:1'))?.state).toBe('running');
    expect(runner.fire(PROJECT, store, id, manual('now:2'))?.state).toBe('skipped');
    settle({ agentId: 'a-agent001', done: true });
    await slowStart;
    await new Promise((resolve) => setImmediate(resolve));
    expect(store.runs(id, 2).map((run) => [run.state, run.agentId])).toEqual([['skipped', null], ['succeeded', 'a-agent001']]);

    slowStart = new Promise(() => {});
    runner.fire(PROJECT, store, id, manual('now:3'));
    triggers.start();
    expect(store.runs(id, 1)[0]).toMatchObject({ state: 'failed', reason: 'the host stopped before its work started' });
  });

  it('starts a task rule once per task, with the ended task as its fields', () => {
    const id = add('on-failure', { kind: 'task-ended', label: 'build', outcome: 'failed' });
    add('on-success', { kind: 'task-ended', label: 'build', outcome: 'succeeded' });
    finishTask('t-built001', 'failed', 'build', 2);
    finishTask('t-built001', 'failed', 'build', 2);
    finishTask('t-built002', 'failed', 'other', 2);
    expect(started).toEqual([
      { automation: 'on-failure', event: { key: 'task:t-built001', trigger: 'task build failed (exit code 2)', fields: { 'task.label': 'build', 'task.exitCode': '2', 'task.tail': 'last lines' } } },
    ]);
    expect(store.runs(id, 10)).toHaveLength(1);
  });

  it("sets off no rule with a task the host's stop interrupted, and counts its own interrupted run toward no pause", () => {
    const id = add('on-failure', { kind: 'task-ended', label: 'build', outcome: 'failed' });
    finishTask('t-built001', 'interrupted', 'build', 1);
    expect(started).toEqual([]);
    for (let n = 1; n <= 3; n++) {
      runner.fire(PROJECT, store, id, manual(`now:${n}`));
      finishTask(`t-task000${n}`, 'interrupted');
    }
    expect(store.runs(id, 10).map((run) => run.state)).toEqual(['failed', 'failed', 'failed']);
    expect(store.get(id)).toMatchObject({ enabled: true, failuresInRow: 0 });
    expect(paused).toEqual([]);
  });

  it("sets a changes-requested rule off once for each head commit of an agent's open pull request that changes are requested on", () => {
    add('on-review', { kind: 'changes-requested' });
    const link = (headSha: string, reviewDecision: 'none' | 'approved' | 'changes-requested', state: 'open' | 'merged' = 'open') =>
      ({ agentId: 'a-agent001', projectId: PROJECT, pullRequest: { number: 7, title: 'Cart total', url: 'https://github.com/acme/shop/pull/7', headBranch: 'drover/alpha', headSha, reviewDecision, state } }) as ForgeLink;
    triggers.forgeChanged(PROJECT, link('aaa', 'approved'));
    triggers.forgeChanged(PROJECT, link('aaa', 'changes-requested'));
    triggers.forgeChanged(PROJECT, link('aaa', 'changes-requested'));
    triggers.forgeChanged(PROJECT, link('bbb', 'changes-requested', 'merged'));
    finishTask('t-task0001', 'succeeded');
    triggers.forgeChanged(PROJECT, link('ccc', 'changes-requested'));
    triggers.forgeChanged(PROJECT, null);
    const fields = { 'pr.number': '7', 'pr.title': 'Cart total', 'pr.url': 'https://github.com/acme/shop/pull/7', 'pr.branch': 'drover/alpha' };
    expect(started.map(({ event }) => event)).toEqual([
      { key: 'review:7:aaa', trigger: 'changes requested on #7', fields },
      { key: 'review:7:ccc', trigger: 'changes requested on #7', fields },
    ]);
  });

  it("sets an agent-failed rule off once for each session of the agent that ended with an error, never for one stopped or restarted", () => {
    add('alpha-down', { kind: 'agent-failed', agent: 'alpha' });
    add('beta-down', { kind: 'agent-failed', agent: 'beta' });
    const ended = (id: string, endReason: string, exitCode: number | null) =>
      ({ id, agentId: 'a-alpha001', projectId: PROJECT, state: 'exited', needsInput: false, exitCode, endReason }) as AgentSession;
    triggers.sessionChanged(PROJECT, ended('s-1', 'stopped', null));
    triggers.sessionChanged(PROJECT, ended('s-2', 'app-restart', null));
    triggers.sessionChanged(PROJECT, ended('s-3', 'exited', 0));
    triggers.sessionChanged(PROJECT, ended('s-4', 'exited', 2));
    triggers.sessionChanged(PROJECT, ended('s-4', 'exited', 2));
    expect(started).toEqual([
      {
        automation: 'alpha-down',
        event: { key: 'session:s-4', trigger: 'agent alpha failed (exited)', fields: { 'agent.name': 'alpha', 'agent.exitCode': '2', 'agent.reason': 'exited' } },
      },
    ]);
  });

  it('sets off no rule once stopped: the tasks the stop interrupts are not failures', () => {
    add('on-any', { kind: 'task-ended', label: 'build', outcome: 'any' });
    triggers.stop();
    finishTask('t-built001', 'failed', 'build', 1);
    expect(started).toEqual([]);
  });
});
