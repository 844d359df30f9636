import type { Task } from '../../shared/entities/tasks';
import { isTaskFinished } from '../../shared/entities/tasks';

export const TASK_FILTERS = ['all', 'active', 'finished', 'failed'] as const;
export type TaskFilter = (typeof TASK_FILTERS)[number];

export const TASK_FILTER_LABELS: Readonly<Record<TaskFilter, string>> = {
  all: 'All',
  active: 'Active',
  finished: 'Finished',
  failed: 'Failed',
};

const FILTER_TESTS: Readonly<Record<TaskFilter, (task: Task) => boolean>> = {
  all: () => true,
  active: (task) => !isTaskFinished(task.state),
  finished: (task) => isTaskFinished(task.state),
  // A task stopped by a host restart did not do its work either: it wants a look and a retry, as a failure does.
  failed: (task) => task.state === 'failed' || task.state === 'interrupted',
};

/** Newest first; the id breaks ties so the order is stable between renders. */
export function newestFirst(a: Task, b: Task): number {
  return b.createdAt - a.createdAt || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);
}

export function sortNewestFirst(tasks: Iterable<Task>): Task[] {
  return [...tasks].sort(newestFirst);
}

function matchesQuery(task: Task, needle: string): boolean {
  return (
    task.command.toLowerCase().includes(needle) ||
    (task.label?.toLowerCase().includes(needle) ?? false) ||
    (task.ownerAgentId?.toLowerCase().includes(needle) ?? false) ||
    task.id.includes(needle)
  );
}

/** Keeps the input's order (already sorted); an empty query matches everything. */
export function filterTasks(sorted: readonly Task[], filter: TaskFilter, query: string): readonly Task[] {
  const needle = query.trim().toLowerCase();
  if (filter === 'all' && needle === '') return sorted;
  const test = FILTER_TESTS[filter];
  return sorted.filter((task) => test(task) && (needle === '' || matchesQuery(task, needle)));
}

export interface TaskCounts {
  queued: number;
  running: number;
  failed: number;
}

export function countTasks(tasks: Iterable<Task>): TaskCounts {
  const counts: TaskCounts = { queued: 0, running: 0, failed: 0 };
  for (const task of tasks) {
    if (task.state === 'queued') counts.queued++;
    else if (task.state === 'running' || task.state === 'cancelling') counts.running++;
    else if (task.state === 'failed') counts.failed++;
  }
  return counts;
}
