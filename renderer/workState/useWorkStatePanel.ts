import { useCallback, useMemo, useState } from 'react';
import type { Task } from '../../shared/entities/tasks';
import { usePaletteCommands } from '../components/commandRegistry';
import { useFocusRequest } from '../store/focusRequest';
import { useWorkState } from '../store/hooks';
import { retryRefusal } from '../store/selectors';
import { showWorkState } from '../store/workspaceView';
import { entitiesOf } from '../store/versioned';
import { taskCommands, type TaskAction } from './taskCommands';
import { useGlobalShortcuts } from './useGlobalShortcuts';
import { usePanelFocus } from './usePanelFocus';
import { useTaskActions } from './useTaskActions';
import { useTaskOutput } from './useTaskOutput';
import { useTaskView } from './useTaskView';

/**
 * Everything the work state panel does besides rendering: which tasks it shows and which one is
 * selected, its dialogs, cancel and retry, and the keys, palette commands and focus requests that
 * reach it.
 */
export function useWorkStatePanel(projectId: string) {
  const formerAgentsById = useWorkState(projectId, 'formerAgentsById');
  const view = useTaskView(projectId);
  const { select, selected } = view;
  const focus = usePanelFocus(projectId);
  const { focusGrid, focusSearch, revealAndFocus } = focus;
  const output = useTaskOutput(projectId, view.tasksById, select);
  const { open } = output;
  const [runningTaskForm, setRunningTaskForm] = useState(false);
  const [showingShortcuts, setShowingShortcuts] = useState(false);

  // Retried from its output, the new attempt's output takes its place; from the list, its row is selected.
  const { outputTask } = output;
  const showRetried = useCallback((task: Task) => (outputTask ? open(task) : select(task)), [outputTask, open, select]);
  const { requestCancel, confirmCancel, retry: retryAnyway, confirming, stopConfirming, error } = useTaskActions(showRetried);
  const refusalOf = useCallback((task: Task) => retryRefusal(task, entitiesOf(formerAgentsById)), [formerAgentsById]);
  const retry = useCallback(
    (task: Task) => {
      if (refusalOf(task) === null) retryAnyway(task);
    },
    [refusalOf, retryAnyway],
  );

  useGlobalShortcuts((command) => {
    if (command === 'focusPanel') revealAndFocus(focusGrid);
    else if (command === 'focusSearch') revealAndFocus(focusSearch);
    else setShowingShortcuts(true);
  });

  // The Needs you queue (or a notification, or an automation's history) asks for a task: show it whatever the filter hides.
  useFocusRequest((target) => {
    if (target.kind !== 'task' || target.projectId !== projectId) return false;
    const task = view.tasksById[target.taskId];
    if (!task) return false;
    view.reveal(task.id);
    if (target.openOutput) open(task);
    else requestAnimationFrame(focusGrid);
    return true;
  });

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

  return {
    view,
    focus,
    output,
    tasks: { requestCancel, confirmCancel, confirming, stopConfirming, error, retry, refusalOf },
    runTaskForm: {
      shown: runningTaskForm,
      show: () => setRunningTaskForm(true),
      hide: () => setRunningTaskForm(false),
      /** A task just run is shown whatever the filter hides, in the panel shown. */
      created: (task: Task) => {
        view.reveal(task.id);
        showWorkState(projectId, true);
      },
    },
    shortcuts: { shown: showingShortcuts, show: () => setShowingShortcuts(true), hide: () => setShowingShortcuts(false) },
  };
}
