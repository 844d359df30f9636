import { describe, expect, it } from 'vitest';
import type { Task, TaskState } from '../../shared/entities/tasks';
import { makeTask } from '../testing/fixtures';
import { countTasks, filterTasks, sortNewestFirst } from './taskQuery';

let nextId = 0;
function task(state: TaskState, overrides: Partial<Task> = {}): Task {
  nextId++;
  return makeTask({
    id: `t-task${String(nextId).padStart(4, '0')}`,
    projectId: 'p-test00',
    command: `echo ${nextId}`,
    cwd: '/repo',
    state,
    createdAt: nextId * 1000,
    logPath: '/repo/log',
    seq: nextId,
    ...overrides,
  });
}

describe('work state queries', () => {
  const queued = task('queued', { label: 'Unit tests', command: 'npm test' });
  const running = task('running', { ownerAgentId: 'backend-agent', command: 'cargo build --release' });
  const failed = task('failed', { endedAt: 50_000, command: 'npm run lint' });
  const done = task('succeeded', { endedAt: 60_000 });
  const interrupted = task('interrupted', { endedAt: 70_000, reason: 'app-restart' });
  const sorted = sortNewestFirst([queued, failed, done, running, interrupted]);

  it('sorts newest first', () => {
    expect(sorted.map((t) => t.id)).toEqual([interrupted.id, done.id, failed.id, running.id, queued.id]);
  });

  it('filters by state group', () => {
    expect(filterTasks(sorted, 'all', '')).toBe(sorted);
    expect(filterTasks(sorted, 'active', '')).toEqual([running, queued]);
    expect(filterTasks(sorted, 'finished', '')).toEqual([interrupted, done, failed]);
  });

  it('counts an interrupted task among the failed ones: it did not do its work either', () => {
    expect(filterTasks(sorted, 'failed', '')).toEqual([interrupted, failed]);
  });

  it('searches command, label and agent, ignoring case and spaces around', () => {
    expect(filterTasks(sorted, 'all', ' UNIT ')).toEqual([queued]);
    expect(filterTasks(sorted, 'all', 'npm')).toEqual([failed, queued]);
    expect(filterTasks(sorted, 'active', 'backend')).toEqual([running]);
    expect(filterTasks(sorted, 'failed', 'cargo')).toEqual([]);
  });

  it('counts queued, running and failed tasks', () => {
    expect(countTasks(sorted)).toEqual({ queued: 1, running: 1, failed: 1 });
  });
});

describe('with 10,000 tasks', () => {
  // Speed is measured by the 10,000-task e2e and bench/, never asserted here.
  it('sorts, counts and filters all of them', () => {
    const many = Array.from({ length: 10_000 }, (_, i) =>
      task(i % 7 === 0 ? 'failed' : i % 5 === 0 ? 'queued' : 'succeeded', { command: `make target-${i}` }),
    );
    const sorted = sortNewestFirst(many);
    expect(sorted.map((t) => t.id)).toEqual([...many].reverse().map((t) => t.id));
    expect(countTasks(sorted)).toEqual({
      queued: many.filter((t) => t.state === 'queued').length,
      running: 0,
      failed: many.filter((t) => t.state === 'failed').length,
    });
    const found = filterTasks(sorted, 'failed', 'target-7');
    expect(found.length).toBeGreaterThan(0);
    expect(found.every((t) => t.state === 'failed' && t.command.includes('target-7'))).toBe(true);
    expect(found).toHaveLength(many.filter((t) => t.state === 'failed' && t.command.includes('target-7')).length);
  });
});
