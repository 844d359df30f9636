import type { AgentWork } from '../inbox/inboxPresentation';
import { StatusIcon } from '../workState/StatusBadge';
import { taskTitle } from '../workState/taskPresentation';

function tasks(count: number): string {
  return `${count} ${count === 1 ? 'task' : 'tasks'}`;
}

/** The agent's own background tasks: how many wait and run, and finished ones it has not read about. */
export function AgentTaskBadges({ work }: { work: AgentWork }) {
  const done = work.unreadResults;
  const badges = [
    { tone: 'queued', count: work.queued, text: `Queued ${work.queued}`, name: `Queued: ${tasks(work.queued)}`, title: null },
    { tone: 'running', count: work.running, text: `Running ${work.running}`, name: `Running: ${tasks(work.running)}`, title: null },
    {
      tone: 'done',
      count: done.length,
      text: done.length === 1 ? 'Task done' : `Tasks done ${done.length}`,
      name: `Task done: ${done.length} ${done.length === 1 ? 'result' : 'results'} not read yet`,
      title: `Result not read yet: ${done.map(taskTitle).join(', ')}`,
    },
  ] as const;
  const shown = badges.filter((badge) => badge.count > 0);
  if (shown.length === 0) return null;
  return (
    <span className="agent-task-badges">
      {shown.map((badge) => (
        <span
          key={badge.tone}
          role="img"
          aria-label={badge.name}
          title={badge.title ?? badge.name}
          className={`project-badge project-badge--${badge.tone}`}
        >
          <StatusIcon tone={badge.tone} />
          {badge.text}
        </span>
      ))}
    </span>
  );
}
