import { useMemo } from 'react';
import { CountBadges } from '../components/CountBadges';
import { useWorkState } from '../store/hooks';
import { readLastViewed } from './lastViewed';
import { countFailuresSince, countTasks } from './taskQuery';

/** Running and queued counts, and failures since the project page was last opened here. */
export function ProjectTaskBadges({ projectId }: { projectId: string }) {
  const tasksById = useWorkState(projectId, 'tasksById');
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
