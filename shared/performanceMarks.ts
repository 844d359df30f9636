/**
 * Performance marks the page sets (User Timing), for the bench and for anyone profiling it in the
 * browser's performance panel. Each carries `{ projectId, tasks }` as its detail.
 */
export const PERFORMANCE_MARKS = {
  /** A project's whole work-state snapshot (every part) has arrived. */
  workStateSnapshot: 'drover:work-state-snapshot',
  /** The task grid has been painted with that snapshot. */
  workStatePainted: 'drover:work-state-painted',
} as const;

export interface WorkStateMarkDetail {
  projectId: string;
  tasks: number;
}
