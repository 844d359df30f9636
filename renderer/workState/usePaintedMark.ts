import { useEffect, useRef } from 'react';
import { afterNextPaint } from '../store/afterPaint';
import { PERFORMANCE_MARKS, type WorkStateMarkDetail } from '../../shared/performanceMarks';

function latestSnapshotMark(projectId: string): PerformanceEntry | undefined {
  return performance
    .getEntriesByName(PERFORMANCE_MARKS.workStateSnapshot, 'mark')
    .filter((mark) => ((mark as PerformanceMark).detail as WorkStateMarkDetail | null)?.projectId === projectId)
    .at(-1);
}

/**
 * Marks when the task grid has been painted with a newly arrived snapshot: after React committed
 * it, the next frame's rendering, and the task that follows that frame (so after its paint).
 */
export function usePaintedMark(projectId: string, snapshot: unknown, tasks: number): void {
  const handled = useRef<PerformanceEntry | undefined>(undefined);
  useEffect(() => {
    const arrived = latestSnapshotMark(projectId);
    if (!arrived || arrived === handled.current) return;
    handled.current = arrived;
    const detail: WorkStateMarkDetail = { projectId, tasks };
    afterNextPaint(() => performance.mark(PERFORMANCE_MARKS.workStatePainted, { detail }));
  }, [projectId, snapshot, tasks]);
}
