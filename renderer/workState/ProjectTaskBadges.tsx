import { useMemo } from 'react';
import type { Task } from '../../shared/entities';
import { useDrover } from '../store/StoreContext';
import { readLastViewed } from './lastViewed';
import { CountBadges } from './CountBadges';
import { countFailuresSince, countTasks } from './taskQuery';

const NO_TASKS: Readonly<Record<string, Task>> = {};

/** Running and queued counts, and failures since the project page was last opened here. */
export function ProjectTaskBadges({ projectId }: { projectId: string }) {
  const tasksById = useDrover((state) => state.workStates[projectId]?.tasksById ?? NO_TASKS);
  const { counts, newFailures } = useMemo(() => {
    const tasks = Object.values(tasksById);
    return { counts: countTasks(tasks), newFailures: countFailuresSince(tasks, readLastViewed(projectId)) };
  }, [tasksById, projectId]);

  return (
    <CountBadges
      className="project-badges"
      badges={[
        { tone: 'running', count: counts.running, text: `${counts.running} running`, name: `${counts.running} running` },
        { tone: 'queued', count: counts.queued, text: `${counts.queued} queued`, name: `${counts.queued} queued` },
        { tone: 'failed', count: newFailures, text: `${newFailures} failed`, name: `${newFailures} failed since you last looked` },
      ]}
    />
  );
}
