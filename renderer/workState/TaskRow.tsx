import { memo } from 'react';
import type { Task } from '../../shared/entities/tasks';
import { canCancel, canRetry } from '../format/taskPresentation';
import { TaskStatusBadge } from './TaskStatusBadge';
import { TaskTime } from './TaskTime';

export interface TaskRowActions {
  onSelect(task: Task): void;
  onOpen(task: Task): void;
  onCancel(task: Task): void;
  onRetry(task: Task): void;
}

interface TaskRowProps extends TaskRowActions {
  task: Task;
  ownerName: string | null;
  /** Why it cannot run again although it ended, if it cannot. */
  retryRefusal: string | null;
  /** The branch of the agent worktree it runs in, if any. */
  branch: string | null;
  /** The other machine it runs on (null: this one). */
  machine: string | null;
  rowId: string;
  /** 1-based, counting the header row, for screen readers in a virtualised grid. */
  rowIndex: number;
  selected: boolean;
  top: number;
  height: number;
}

/**
 * One task. The grid owns keyboard focus (aria-activedescendant), so the row's buttons stay out
 * of the tab order: `c` and `r` are their keyboard equivalents.
 */
export const TaskRow = memo(function TaskRow({ task, ownerName, retryRefusal, branch, machine, rowId, rowIndex, selected, top, height, ...actions }: TaskRowProps) {
  return (
    <div
      id={rowId}
      role="row"
      aria-rowindex={rowIndex}
      aria-selected={selected}
      className={`task-row ${selected ? 'task-row--selected' : ''}`}
      style={{ transform: `translateY(${top}px)`, height }}
      onClick={() => actions.onOpen(task)}
      onMouseDown={() => actions.onSelect(task)}
    >
      <div role="gridcell" className="task-row__status">
        <TaskStatusBadge state={task.state} />
      </div>
      <div role="gridcell" className="task-row__title" title={machine ? `${task.command} (on ${machine})` : task.command}>
        {task.label && <span className="task-row__label">{task.label}</span>}
        <code className="task-row__command">{task.command}</code>
        {machine && <span className="task-row__machine">on {machine}</span>}
      </div>
      <div role="gridcell" className="task-row__agent" title={branch ? `${ownerName ?? 'No agent'}, on ${branch}` : undefined}>
        {ownerName ?? <span className="task-row__none">—</span>}
        {branch && <span className="task-row__branch"> ⎇ {branch}</span>}
      </div>
      <div role="gridcell" className="task-row__attempt">
        #{task.attempt}
      </div>
      <div role="gridcell" className="task-row__time">
        <TaskTime task={task} />
      </div>
      <div role="gridcell" className="task-row__actions">
        <RowButton label="Cancel" enabled={canCancel(task)} onPress={() => actions.onCancel(task)} />
        <RowButton label="Retry" enabled={canRetry(task) && retryRefusal === null} title={retryRefusal ?? undefined} onPress={() => actions.onRetry(task)} />
      </div>
    </div>
  );
});

function RowButton({ label, enabled, title, onPress }: { label: string; enabled: boolean; title?: string; onPress(): void }) {
  return (
    <button
      type="button"
      tabIndex={-1}
      title={title}
      className="button button--ghost button--row"
      disabled={!enabled}
      onMouseDown={(event) => event.preventDefault()}
      onClick={(event) => {
        event.stopPropagation();
        onPress();
      }}
    >
      {label}
    </button>
  );
}
