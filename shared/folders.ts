import { ACTIVE_TASK_STATES, type Task } from './entities/tasks';

/**
 * True when `candidate` is `root` or lies below it. Both are absolute and canonical, as Drover
 * keeps folders (no `.` or `..`, no trailing slash but the root's), so a test of the strings
 * suffices: the host, the CLI and the renderer all apply this one.
 */
export function isInside(root: string, candidate: string): boolean {
  return candidate === root || candidate.startsWith(root.endsWith('/') ? root : `${root}/`);
}

/** The tasks queued, running or stopping in `folder` or below it, in the order given: what changing its files would pull the floor from under. */
export function tasksWorkingIn(tasks: Iterable<Task>, folder: string): Task[] {
  return [...tasks].filter((task) => ACTIVE_TASK_STATES.includes(task.state) && isInside(folder, task.cwd));
}
