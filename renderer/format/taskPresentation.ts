import type { Task, TaskState } from '../../shared/entities/tasks';
import type { Status, TaskTone } from './tone';

/** The words people and tests read on a badge; the tone picks both colour and icon. */
export const TASK_STATUS: Readonly<Record<TaskState, Status<TaskTone>>> = {
  queued: { label: 'Queued', tone: 'queued' },
  running: { label: 'Running', tone: 'running' },
  cancelling: { label: 'Cancelling…', tone: 'running' },
  succeeded: { label: 'Task done', tone: 'done' },
  failed: { label: 'Failed', tone: 'failed' },
  cancelled: { label: 'Cancelled', tone: 'cancelled' },
  interrupted: { label: 'Interrupted', tone: 'interrupted' },
};

/** What a person calls the task: its label when an agent gave one, else its command. */
export function taskTitle(task: Pick<Task, 'label' | 'command'>): string {
  return task.label ?? task.command;
}

export function canCancel(task: Pick<Task, 'state'>): boolean {
  return task.state === 'queued' || task.state === 'running';
}

export function canRetry(task: Pick<Task, 'state'>): boolean {
  return task.state === 'succeeded' || task.state === 'failed' || task.state === 'cancelled' || task.state === 'interrupted';
}

/** How a finished task ended, e.g. "exit 3" or "SIGTERM"; null while it has not ended. */
export function taskOutcome(task: Pick<Task, 'exitCode' | 'signal'>): string | null {
  if (task.signal) return task.signal;
  return task.exitCode === null ? null : `exit ${task.exitCode}`;
}
