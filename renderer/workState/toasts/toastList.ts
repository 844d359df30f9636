import type { Task } from '../../../shared/entities/tasks';

export interface TaskToast {
  /** One toast per task: a newer ending of the same task replaces the older toast. */
  key: string;
  task: Task;
}

export const MAX_TOASTS = 4;

/** Newest last (the stack grows upward from the corner); the oldest drop off beyond the cap. */
export function addToast(toasts: readonly TaskToast[], task: Task): TaskToast[] {
  const others = toasts.filter((toast) => toast.key !== task.id);
  return [...others, { key: task.id, task }].slice(-MAX_TOASTS);
}

export function dismissToast(toasts: readonly TaskToast[], key: string): TaskToast[] {
  return toasts.filter((toast) => toast.key !== key);
}
