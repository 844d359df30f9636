/**
 * Performance marks the page sets (User Timing), for the bench and for anyone profiling it in the
 * browser's performance panel. Marks carry `{ projectId, tasks }` as their detail.
 */
export const PERFORMANCE_MARKS = {
  /** A measure: one part of a work-state snapshot, from its arrival to the end of its shape check (detail: `{ projectId }`). */
  workStatePartChecked: 'drover:work-state-part-checked',
  /** A project's whole work-state snapshot (every part) has arrived. */
  workStateSnapshot: 'drover:work-state-snapshot',
  /** The task grid has been painted with that snapshot. */
  workStatePainted: 'drover:work-state-painted',
} as const;

export interface WorkStateMarkDetail {
  projectId: string;
  tasks: number;
}
