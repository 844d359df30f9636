import { useVirtualizer } from '@tanstack/react-virtual';
import { useCallback, useEffect, useId, useMemo, useRef, type KeyboardEvent, type Ref } from 'react';
import type { Agent, FormerAgent } from '../../shared/entities/agents';
import type { Task } from '../../shared/entities/tasks';
import type { Worktree } from '../../shared/entities/worktrees';
import { listCommandFor, type ListCommand } from '../keyboard/shortcuts';
import { usePaintedOnce } from '../store/afterPaint';
import { usePhoneLayout } from '../store/phoneLayout';
import { branchOfFolder, ownerNameOf } from '../store/selectors';
import { machineOfPage } from '../transport/machinePage';
import { TaskRow, type TaskRowActions } from './TaskRow';

const ROW_HEIGHT = 34;
/** Rows a finger can hit (the row's buttons are 36 px there). */
const PHONE_ROW_HEIGHT = 44;
/** Rows kept beyond the visible ones, so scrolling does not show gaps. */
const OVERSCAN = 12;
const COLUMN_COUNT = 6;

interface TaskGridProps extends TaskRowActions {
  tasks: readonly Task[];
  /** To show an owner agent by name (tasks may name their owner by id or by name). */
  agentsById: Readonly<Record<string, Agent>>;
  /** To name the owner of a removed agent's tasks. */
  formerAgentsById: Readonly<Record<string, FormerAgent>>;
  /** Why a task cannot run again, where it cannot (its Retry is then off). */
  retryRefusalOf(task: Task): string | null;
  /** To name the branch of the agent worktree a task runs in. */
  worktreesByAgentId: Readonly<Record<string, Worktree>>;
  selectedIndex: number;
  gridRef: Ref<HTMLDivElement>;
  emptyMessage: string;
}

function moveTarget(command: ListCommand, index: number, count: number): number | null {
  if (command === 'next') return Math.min(count - 1, index + 1);
  if (command === 'previous') return Math.max(0, index - 1);
  if (command === 'first') return 0;
  if (command === 'last') return count - 1;
  return null;
}

/**
 * The task list as an ARIA grid: focus stays on the grid and aria-activedescendant names the
 * selected row, which is what keeps keyboard use working while rows come and go (virtualised).
 */
export function TaskGrid({ tasks, agentsById, formerAgentsById, retryRefusalOf, worktreesByAgentId, selectedIndex, gridRef, emptyMessage, ...actions }: TaskGridProps) {
  const worktrees = useMemo(() => Object.values(worktreesByAgentId), [worktreesByAgentId]);
  const machine = machineOfPage();
  const scrollRef = useRef<HTMLDivElement>(null);
  const rowIdPrefix = useId();
  const rowHeight = usePhoneLayout() ? PHONE_ROW_HEIGHT : ROW_HEIGHT;
  // The virtualizer lays out every row again (10,000 of them) whenever the key function changes.
  const getItemKey = useCallback((index: number) => tasks[index]?.id ?? index, [tasks]);
  // The visible rows are painted first; the rows beyond them follow (twice as many DOM rows to
  // create, style and lay out before a 10,000-task snapshot's first paint, else).
  const overscan = usePaintedOnce() ? OVERSCAN : 0;
  const virtualizer = useVirtualizer({
    count: tasks.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => rowHeight,
    overscan,
    getItemKey,
  });

  // Only a change of row height (to or from the phone layout) needs the rows laid out again.
  const laidOutHeight = useRef(rowHeight);
  useEffect(() => {
    if (laidOutHeight.current === rowHeight) return;
    laidOutHeight.current = rowHeight;
    virtualizer.measure();
  }, [virtualizer, rowHeight]);

  // Scrolling reads the list's layout at once (a forced layout of the whole page, the first time):
  // only when the selected row is not already wholly in view.
  useEffect(() => {
    const range = virtualizer.range;
    const atTop = selectedIndex === 0 && (virtualizer.scrollOffset ?? 0) === 0;
    const inView = atTop || (range !== null && selectedIndex > range.startIndex && selectedIndex < range.endIndex);
    if (tasks.length > 0 && !inView) virtualizer.scrollToIndex(selectedIndex, { align: 'auto' });
  }, [virtualizer, selectedIndex, tasks.length]);

  const selected = tasks[selectedIndex];
  const { onSelect, onOpen, onCancel, onRetry } = actions;
  const onKeyDown = useCallback(
    (event: KeyboardEvent<HTMLDivElement>) => {
      const command = listCommandFor(event);
      if (!command || !selected) return;
      event.preventDefault();
      const target = moveTarget(command, selectedIndex, tasks.length);
      const next = target === null ? undefined : tasks[target];
      if (next) onSelect(next);
      else if (command === 'open') onOpen(selected);
      else if (command === 'cancel') onCancel(selected);
      else if (command === 'retry') onRetry(selected);
    },
    [selected, selectedIndex, tasks, onSelect, onOpen, onCancel, onRetry],
  );

  const rowId = (task: Task) => `${rowIdPrefix}-${task.id}`;

  return (
    <div
      ref={gridRef}
      role="grid"
      aria-label="Tasks"
      aria-rowcount={Math.max(tasks.length, 1) + 1}
      aria-activedescendant={selected ? rowId(selected) : undefined}
      tabIndex={0}
      className="task-grid"
      onKeyDown={onKeyDown}
    >
      <div role="rowgroup" className="task-grid__head">
        <div role="row" aria-rowindex={1} className="task-row task-row--head">
          <div role="columnheader">Status</div>
          <div role="columnheader">Task</div>
          <div role="columnheader">Agent</div>
          <div role="columnheader">Attempt</div>
          <div role="columnheader">Time</div>
          <div role="columnheader">
            <span className="visually-hidden">Actions</span>
          </div>
        </div>
      </div>
      <div ref={scrollRef} role="rowgroup" className="task-grid__body">
        {tasks.length === 0 ? (
          <div role="row" aria-rowindex={2}>
            <p role="gridcell" aria-colspan={COLUMN_COUNT} className="task-grid__empty">
              {emptyMessage}
            </p>
          </div>
        ) : (
          <div className="task-grid__canvas" style={{ height: virtualizer.getTotalSize() }}>
            {virtualizer.getVirtualItems().map((item) => {
              const task = tasks[item.index];
              if (!task) return null;
              return (
                <TaskRow
                  key={task.id}
                  task={task}
                  ownerName={ownerNameOf(task, agentsById, formerAgentsById)}
                  retryRefusal={retryRefusalOf(task)}
                  branch={branchOfFolder(task.cwd, worktrees)}
                  machine={machine}
                  rowId={rowId(task)}
                  rowIndex={item.index + 2}
                  selected={item.index === selectedIndex}
                  top={item.start}
                  height={rowHeight}
                  {...actions}
                />
              );
            })}
          </div>
        )}
      </div>
    </div>
  );
}
