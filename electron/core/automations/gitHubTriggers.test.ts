import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Check } from '../../../shared/forge';
import { makeTempDir, removeDir } from '../../../test-support/tempDir';
import { AutomationStore } from '../storage/automationStore';
import { PROJECT_MIGRATIONS } from '../storage/projectSchema';
import { SeqCounter } from '../storage/seqCounter';
import { openDatabase, type SqliteDatabase } from '../storage/sqlite';
import { AutomationRunner, type AutomationEvent } from './automationRunner';
import { GitHubTriggers } from './gitHubTriggers';

const PROJECT = 'p-test00';
const MADE_AT = Date.parse('2026-01-05T10:00:00Z');

describe('GitHub triggers', () => {
  let dir: string;
  let db: SqliteDatabase;
  let store: AutomationStore;
  let started: AutomationEvent[];
  let issues: { number: number; createdAt: number; labels: string[] }[];
  let triggers: GitHubTriggers;
  let checksByBranch: Record<string, Check[]>;
  let runner: AutomationRunner;
  /** The rule's work is a task that runs until the test ends it, where a message is done at once. */
  let startsTasks: boolean;

  beforeEach(() => {
    dir = makeTempDir();
    db = openDatabase(path.join(dir, 'state.sqlite'), { migrations: PROJECT_MIGRATIONS, description: 'test' });
    store = new AutomationStore(db, new SeqCounter(0));
    started = [];
    issues = [];
    checksByBranch = {};
    startsTasks = false;
    const clock = { now: () => MADE_AT + 60_000, setTimer: () => () => {} };
    runner = new AutomationRunner(
      {
        start: (_projectId, _automation, event) => {
          started.push(event);
          return startsTasks ? { taskId: `t-${event.key.replace(':', '')}`.padEnd(10, '0') } : { agentId: 'a-agent001', done: true };
        },
      },
      clock,
      () => {},
    );
    triggers = new GitHubTriggers(
      { ids: () => [PROJECT], automations: () => store },
      {
        issues: (_projectId, labels) => Promise.resolve(issues.filter((issue) => labels.every((label) => issue.labels.includes(label)))),
        issue: (_projectId, number) => Promise.resolve({ number, title: `Issue ${number}`, url: `https://github.com/acme/shop/issues/${number}`, body: `Body of ${number}` }),
        failedChecks: (_projectId, branch) => Promise.resolve((checksByBranch[branch] ?? []).filter((check) => check.state === 'failed')),
        failureDetails: (_projectId, check) => Promise.resolve(`${check.name}: 2 tests failed`),
      },
      runner,
      clock,
      300,
      () => {},
    );
  });
  afterEach(() => {
    db.close();
    removeDir(dir);
  });

  const add = (name: string, trigger: { kind: 'issue-opened' } | { kind: 'issue-labelled'; label: string } | { kind: 'check-failed'; branch: string }) =>
    store.insert({ id: `u-${name.padEnd(6, '0')}`, name, trigger, action: { kind: 'message', agent: 'a', text: '{issue.title}' }, dailyCap: 48, catchUpMs: 0, checkedUntil: MADE_AT, createdAt: MADE_AT });

  it('sets an issue-opened rule off once for each issue opened after it was made', async () => {
    add('opened', { kind: 'issue-opened' });
    issues.push({ number: 1, createdAt: MADE_AT - 1, labels: [] }, { number: 2, createdAt: MADE_AT + 1, labels: [] });
    await triggers.poll();
    await triggers.poll();
    expect(started).toEqual([
      {
        key: 'issue:2',
        trigger: 'issue #2 opened',
        fields: { 'issue.number': '2', 'issue.title': 'Issue 2', 'issue.body': 'Body of 2', 'issue.url': 'https://github.com/acme/shop/issues/2' },
      },
    ]);
  });

  it('sets a rule edited to issue-opened off only for issues opened after the edit, not since it was made', async () => {
    add('edited', { kind: 'issue-labelled', label: 'agent' });
    const editedAt = MADE_AT + 30_000;
    store.update('u-edited', { trigger: { kind: 'issue-opened' }, action: { kind: 'message', agent: 'a', text: '{issue.title}' }, dailyCap: 48, catchUpMs: 0, checkedUntil: editedAt, triggerSetAt: editedAt });
    issues.push({ number: 7, createdAt: MADE_AT + 1, labels: [] }, { number: 8, createdAt: editedAt + 1, labels: [] });
    await triggers.poll();
    expect(started.map((event) => event.trigger)).toEqual(['issue #8 opened']);
  });

  it('sets an issue-labelled rule off once for each open issue with its label, old ones too', async () => {
    add('labelled', { kind: 'issue-labelled', label: 'agent' });
    issues.push({ number: 3, createdAt: MADE_AT - 1, labels: ['agent'] }, { number: 4, createdAt: MADE_AT + 1, labels: ['bug'] });
    await triggers.poll();
    issues[1]!.labels.push('agent');
    await triggers.poll();
    await triggers.poll();
    expect(started.map((event) => event.trigger)).toEqual(['issue #3 labelled agent', 'issue #4 labelled agent']);
  });

  it('leaves an issue for a later poll while the last run is still going, where a skip would lose it', async () => {
    startsTasks = true;
    add('labelled', { kind: 'issue-labelled', label: 'agent' });
    issues.push({ number: 5, createdAt: MADE_AT, labels: ['agent'] }, { number: 6, createdAt: MADE_AT, labels: ['agent'] });
    await triggers.poll();
    await triggers.poll();
    expect(started.map((event) => event.key)).toEqual(['issue:5']);
    runner.taskEnded(PROJECT, store, 't-issue500', 'succeeded', 'exit code 0');
    await triggers.poll();
    expect(started.map((event) => event.key)).toEqual(['issue:5', 'issue:6']);
    expect(store.runs('u-labelled', 10).map((run) => run.state)).toEqual(['running', 'succeeded']);
  });

  it("sets a check-failed rule off once for each failed check run on its branch, with the check's name and what it says", async () => {
    add('red-main', { kind: 'check-failed', branch: 'main' });
    const run = (id: number, state: Check['state']): Check => ({ id: `run:${id}`, name: 'build', state, conclusion: state === 'failed' ? 'failure' : 'success', summary: null, url: `https://github.com/acme/shop/runs/${id}` });
    checksByBranch = { main: [run(1, 'passed')], topic: [run(2, 'failed')] };
    await triggers.poll();
    checksByBranch.main = [run(3, 'failed')];
    await triggers.poll();
    await triggers.poll();
    checksByBranch.main = [run(4, 'failed')];
    await triggers.poll();
    expect(started).toEqual([
      { key: 'check:main:run:3:https://github.com/acme/shop/runs/3', trigger: 'check build failed on main', fields: { 'check.name': 'build', 'check.summary': 'build: 2 tests failed', 'check.url': 'https://github.com/acme/shop/runs/3' } },
      { key: 'check:main:run:4:https://github.com/acme/shop/runs/4', trigger: 'check build failed on main', fields: { 'check.name': 'build', 'check.summary': 'build: 2 tests failed', 'check.url': 'https://github.com/acme/shop/runs/4' } },
    ]);
  });
});
