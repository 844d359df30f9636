import { useState } from 'react';
import type { Task } from '../../../shared/entities/tasks';
import { StatusIcon } from '../../components/StatusIcon';
import { canRetry, TASK_STATUS, taskTitle } from '../../format/taskPresentation';
import { useDismissTimer } from './useDismissTimer';

const VISIBLE_MS = 8_000;

interface TaskEndToastProps {
  task: Task;
  projectName: string | null;
  onRetry(task: Task): void;
  onViewOutput(task: Task): void;
  onDismiss(): void;
}

export function TaskEndToast({ task, projectName, onRetry, onViewOutput, onDismiss }: TaskEndToastProps) {
  const [hovered, setHovered] = useState(false);
  const [focused, setFocused] = useState(false);
  useDismissTimer(VISIBLE_MS, hovered || focused, onDismiss);
  const { label, tone } = TASK_STATUS[task.state];
  // A retried task's toast says which attempt ended, so two toasts of one task read apart.
  const context = [projectName, task.attempt > 1 ? `Attempt ${task.attempt}` : null].filter(Boolean).join(' · ');

  return (
    <div
      role="status"
      className="toast"
      data-tone={tone}
      onMouseEnter={() => setHovered(true)}
      onMouseLeave={() => setHovered(false)}
      onFocus={() => setFocused(true)}
      onBlur={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget)) setFocused(false);
      }}
    >
      <StatusIcon tone={tone} />
      <div className="toast__body">
        <p className="toast__title">{label}</p>
        <p className="toast__task" title={task.command}>
          {taskTitle(task)}
        </p>
        {context && <p className="toast__project">{context}</p>}
      </div>
      <div className="toast__actions">
        {canRetry(task) && (
          <button type="button" className="button button--ghost" onClick={() => onRetry(task)}>
            Retry
          </button>
        )}
        <button type="button" className="button button--ghost" onClick={() => onViewOutput(task)}>
          View output
        </button>
        <button type="button" className="button button--ghost toast__dismiss" aria-label="Dismiss" onClick={onDismiss}>
          ×
        </button>
      </div>
    </div>
  );
}
