import { useMemo } from 'react';
import { CountBadges } from '../components/CountBadges';
import { useWorkState } from '../store/hooks';
import { entitiesOf } from '../store/versioned';
import { countTasks } from './taskQuery';

/** How many of the project's tasks run and wait. */
export function ProjectTaskBadges({ projectId }: { projectId: string }) {
  const tasksById = useWorkState(projectId, 'tasksById');
  const counts = useMemo(() => countTasks(entitiesOf(tasksById)), [tasksById]);

  return (
    <CountBadges
      className="project-badges"
      badges={[
        { tone: 'running', count: counts.running, text: `${counts.running} running`, name: `${counts.running} running` },
        { tone: 'queued', count: counts.queued, text: `${counts.queued} queued`, name: `${counts.queued} queued` },
      ]}
    />
  );
}
