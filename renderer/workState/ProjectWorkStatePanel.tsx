import { lazy, Suspense, useCallback, useDeferredValue, useEffect, useId, useMemo, useRef, useState } from 'react';
import type { Task } from '../../shared/entities';
import { usePaletteCommands } from '../components/commandRegistry';
import { ConfirmDialog } from '../components/ConfirmDialog';
import { FormError } from '../components/FormError';
import { taskTitle } from '../format/taskPresentation';
import { taskAttention } from '../store/attention';
import { useFocusRequest } from '../store/focusRequest';
import { useAgents, useProject, useWorkState } from '../store/hooks';
import { useDroverActions } from '../store/StoreContext';
import { isPhoneLayout } from '../store/phoneLayout';
import { isWorkStateShown, showWorkState, useWorkspaceView } from '../store/workspaceView';
import { retryRefusal } from '../store/selectors';
import { entitiesOf } from '../store/versioned';
import { ConcurrencyControl } from './ConcurrencyControl';
import { MissingWorkState } from './MissingWorkState';
import { useOutputViewer } from './outputViewerStore';
import { QueueBadges } from './QueueBadges';
import { RunTaskDialog } from './RunTaskDialog';
import { ShortcutSheet } from './ShortcutSheet';
import { taskCommands, type TaskAction } from './taskCommands';
import { TaskFilterBar } from './TaskFilterBar';
import { TaskGrid } from './TaskGrid';
import { usePaintedMark } from './usePaintedMark';
import { countTasks, filterTasks, sortNewestFirst, type TaskFilter } from './taskQuery';
import { useGlobalShortcuts } from './useGlobalShortcuts';
import { useTaskActions } from './useTaskActions';

// xterm is most of the bundle and only the output viewer needs it.
const TaskOutputDialog = lazy(() => import('./output/TaskOutputDialog').then((module) => ({ default: module.TaskOutputDialog })));

/** The open project's background tasks: what waits, runs and ended, with cancel, retry and output. */
export function ProjectWorkStatePanel({ projectId }: { projectId: string }) {
  const status = useWorkState(projectId, 'status');
  const loadError = useWorkState(projectId, 'error');
  const loadErrorCode = useWorkState(projectId, 'errorCode');
  const tasksById = useWorkState(projectId, 'tasksById');
  const agentsById = useWorkState(projectId, 'agentsById');
  const formerAgentsById = useWorkState(projectId, 'formerAgentsById');
  const agents = useAgents(projectId);
  const projectPath = useProject(projectId)?.path ?? '';
  const [runningTaskForm, setRunningTaskForm] = useState(false);
  const worktreesByAgentId = useWorkState(projectId, 'worktreesByAgentId');
  const [filter, setFilter] = useState<TaskFilter>('all');
  const [query, setQuery] = useState('');
  const deferredQuery = useDeferredValue(query);
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const [showingShortcuts, setShowingShortcuts] = useState(false);
  const gridRef = useRef<HTMLDivElement>(null);
  const searchRef = useRef<HTMLInputElement>(null);
  const headingId = useId();

  const sorted = useMemo(() => sortNewestFirst(entitiesOf(tasksById)), [tasksById]);
  const counts = useMemo(() => countTasks(sorted), [sorted]);
  const visible = useMemo(() => filterTasks(sorted, filter, deferredQuery), [sorted, filter, deferredQuery]);
  usePaintedMark(projectId, tasksById, sorted.length);
  const selectedIndex = Math.max(0, visible.findIndex((task) => task.id === selectedId));

  const outputTarget = useOutputViewer((state) => state.target);
  const openOutput = useOutputViewer((state) => state.open);
  const closeOutput = useOutputViewer((state) => state.close);
  const outputTask = outputTarget?.projectId === projectId ? tasksById[outputTarget.taskId] : undefined;

  const focusGrid = useCallback(() => gridRef.current?.focus(), []);
  /** Every dialog of the panel hands focus back to the task grid when it closes. */
  const thenFocusGrid = (close: () => void) => () => {
    close();
    focusGrid();
  };
  const select = useCallback((task: Task) => setSelectedId(task.id), []);
  const open = useCallback(
    (task: Task) => {
      setSelectedId(task.id);
      openOutput({ projectId, taskId: task.id });
    },
    [openOutput, projectId],
  );
  const { requestCancel, confirmCancel, retry: retryAnyway, confirming, stopConfirming, error } = useTaskActions(select);
  const refusalOf = useCallback((task: Task) => retryRefusal(task, entitiesOf(formerAgentsById)), [formerAgentsById]);
  const retry = useCallback(
    (task: Task) => {
      if (refusalOf(task) === null) retryAnyway(task);
    },
    [refusalOf, retryAnyway],
  );

  const focusSearch = useCallback(() => searchRef.current?.focus(), []);
  /** Shows the panel (or the sheet, on a phone) if it is hidden, then focuses a part of it. */
  const revealAndFocus = useCallback((focus: () => void) => {
    if (isWorkStateShown(useWorkspaceView.getState(), isPhoneLayout())) {
      focus();
      return;
    }
    showWorkState(true);
    requestAnimationFrame(focus);
  }, []);
  useGlobalShortcuts((command) => {
    if (command === 'focusPanel') revealAndFocus(focusGrid);
    else if (command === 'focusSearch') revealAndFocus(focusSearch);
    else setShowingShortcuts(true);
  });

  // The Needs you queue (or a notification) asks for a task: show it whatever the filter hides.
  useFocusRequest((target) => {
    if (target.kind !== 'task' || target.projectId !== projectId || !tasksById[target.taskId]) return false;
    setFilter('all');
    setQuery('');
    setSelectedId(target.taskId);
    requestAnimationFrame(focusGrid);
    return true;
  });

  const selected = visible[selectedIndex];
  const commands = useMemo(() => {
    const handlers: Record<TaskAction, () => void> = {
      runTask: () => setRunningTaskForm(true),
      open: () => selected && open(selected),
      cancel: () => selected && requestCancel(selected),
      retry: () => selected && retry(selected),
      focusPanel: () => revealAndFocus(focusGrid),
      focusSearch: () => revealAndFocus(focusSearch),
      showShortcuts: () => setShowingShortcuts(true),
    };
    return taskCommands(selected, selected ? refusalOf(selected) === null : false).map((command) => ({ ...command, run: handlers[command.action] }));
  }, [selected, refusalOf, open, requestCancel, retry, focusGrid, focusSearch, revealAndFocus]);
  usePaletteCommands(commands);

  // A task whose output the person opened has been looked at: it leaves the Needs you queue.
  const { markHandled } = useDroverActions();
  useEffect(() => {
    const item = outputTask && taskAttention(outputTask);
    if (item) markHandled([item.key]);
  }, [outputTask, markHandled]);

  return (
    <section className="panel work-state" aria-labelledby={headingId}>
      <header className="work-state__header">
        <h2 id={headingId} className="panel__title work-state__title">
          Work state
        </h2>
        <QueueBadges counts={counts} />
        <span className="work-state__spacer" />
        <ConcurrencyControl projectId={projectId} />
        <button type="button" className="button button--ghost" onClick={() => setRunningTaskForm(true)}>
          Run task…
        </button>
        <button
          type="button"
          className="button button--ghost"
          aria-keyshortcuts="?"
          onClick={() => setShowingShortcuts(true)}
        >
          Shortcuts <kbd>?</kbd>
        </button>
      </header>
      <TaskFilterBar
        filter={filter}
        onFilterChange={setFilter}
        query={query}
        onQueryChange={setQuery}
        searchRef={searchRef}
        shownCount={visible.length}
      />
      <FormError message={error} className="work-state__error" />
      {status === 'error' && loadErrorCode === 'data-missing' ? (
        <MissingWorkState projectId={projectId} message={loadError ?? ''} />
      ) : status !== 'ready' && sorted.length === 0 ? (
        <p className={status === 'error' ? 'empty-state empty-state--error' : 'empty-state'}>
          {status === 'error' ? `Could not load the work state: ${loadError ?? 'unknown error'}` : 'Loading work state…'}
        </p>
      ) : (
        <TaskGrid
          tasks={visible}
          agentsById={agentsById}
          formerAgentsById={formerAgentsById}
          retryRefusalOf={refusalOf}
          worktreesByAgentId={worktreesByAgentId}
          selectedIndex={selectedIndex}
          gridRef={gridRef}
          emptyMessage={
            sorted.length === 0
              ? 'No background tasks yet. Commands that agents hand to Drover show up here.'
              : 'No tasks match this filter.'
          }
          onSelect={select}
          onOpen={open}
          onCancel={requestCancel}
          onRetry={retry}
        />
      )}
      {confirming && (
        <ConfirmDialog
          title={`Cancel ${taskTitle(confirming)}?`}
          confirmLabel="Cancel task"
          dismissLabel="Keep running"
          onConfirm={() => confirmCancel(confirming)}
          onClose={thenFocusGrid(stopConfirming)}
        >
          <p>Drover stops the command (SIGTERM to its process group, then SIGKILL after the grace period).</p>
          <p>
            <code className="inline-path">{confirming.command}</code>
          </p>
        </ConfirmDialog>
      )}
      {runningTaskForm && (
        <RunTaskDialog
          projectId={projectId}
          projectPath={projectPath}
          agents={agents}
          worktreesByAgentId={worktreesByAgentId}
          onCreated={(task) => {
            setFilter('all');
            setQuery('');
            setSelectedId(task.id);
            showWorkState(true);
          }}
          onClose={thenFocusGrid(() => setRunningTaskForm(false))}
        />
      )}
      {showingShortcuts && (
        <ShortcutSheet
          onClose={thenFocusGrid(() => setShowingShortcuts(false))}
        />
      )}
      {outputTask && (
        <Suspense fallback={null}>
          <TaskOutputDialog
            key={outputTask.id}
            task={outputTask}
            onClose={thenFocusGrid(() => {
              closeOutput();
              setSelectedId(outputTask.id);
            })}
          />
        </Suspense>
      )}
    </section>
  );
}
