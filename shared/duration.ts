import type { Task } from './entities/tasks';

/** Compact, fixed-width-ish durations: 7s, 4m 05s, 2h 03m. */
export function formatDuration(ms: number): string {
  const seconds = Math.max(0, Math.floor(ms / 1000));
  if (seconds < 60) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes}m ${String(seconds % 60).padStart(2, '0')}s`;
  return `${Math.floor(minutes / 60)}h ${String(minutes % 60).padStart(2, '0')}m`;
}

/** How long the task has run (or ran); `null` before it started. */
export function taskRunTime(task: Pick<Task, 'startedAt' | 'endedAt'>, now: number): number | null {
  if (task.startedAt === null) return null;
  return (task.endedAt ?? now) - task.startedAt;
}
