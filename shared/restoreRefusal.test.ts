import { describe, expect, it } from 'vitest';
import type { Task } from './entities/tasks';
import { restoreRefusal } from './restoreRefusal';

const task = (id: string, state: Task['state'], cwd: string, label: string | null = null) => ({ id, state, cwd, label, command: `run ${id}` }) as Task;

describe('why a restore cannot go ahead now', () => {
  it('names the agent busy in a turn, or the tasks working in its worktree (and in its folders), and nothing else', () => {
    const tasks = [
      task('t-build', 'running', '/data/wt/builder', 'slow build'),
      task('t-tests', 'queued', '/data/wt/builder/src'),
      task('t-done', 'succeeded', '/data/wt/builder'),
      task('t-other', 'running', '/data/wt/builder-2'),
    ];
    expect(restoreRefusal('builder', { state: 'busy' }, [], '/data/wt/builder')).toBe('builder is busy: restore once its turn has ended (or stop it first).');
    expect(restoreRefusal('builder', { state: 'ready' }, tasks, '/data/wt/builder')).toBe(
      "2 tasks (slow build, run t-tests) work in builder's worktree: restore once they have ended (or cancel them).",
    );
    expect(restoreRefusal('builder', undefined, tasks.slice(0, 1), '/data/wt/builder')).toBe("slow build works in builder's worktree: restore once it has ended (or cancel it).");
    expect(restoreRefusal('builder', { state: 'ready' }, tasks.slice(2), '/data/wt/builder')).toBeNull();
  });
});
