import { useId, useMemo } from 'react';
import { isTaskFinished } from '../../shared/entities';
import type { LoadStatus } from '../store/droverStore';
import { useDrover } from '../store/StoreContext';

/** Placeholder for the work-state panel: what the store holds for this project, in one line. */
export function WorkStateSummary({ projectId }: { projectId: string }) {
  const workState = useDrover((state) => state.workStates[projectId]);
  const headingId = useId();
  const counts = useMemo(() => {
    const tasks = Object.values(workState?.tasksById ?? {});
    return { total: tasks.length, active: tasks.filter((task) => !isTaskFinished(task.state)).length };
  }, [workState?.tasksById]);

  return (
    <section className="panel" aria-labelledby={headingId}>
      <h2 id={headingId} className="panel__title">
        Work state
      </h2>
      <p className={workState?.status === 'error' ? 'empty-state empty-state--error' : 'empty-state'}>
        {describe(workState?.status ?? 'loading', workState?.error ?? null, counts)}
      </p>
    </section>
  );
}

function describe(status: LoadStatus, error: string | null, counts: { total: number; active: number }): string {
  if (status === 'error') return `Could not load the work state: ${error ?? 'unknown error'}`;
  if (status === 'loading') return 'Loading work state…';
  if (counts.total === 0) return 'No background tasks yet. Commands that agents hand to Drover will show up here.';
  return `${counts.total} background ${counts.total === 1 ? 'task' : 'tasks'}, ${counts.active} active.`;
}
