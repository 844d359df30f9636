import { useId } from 'react';
import { LoadFailureBoundary } from '../components/LoadFailureBoundary';
import { preloadable } from '../components/preloadable';
import { ConfirmDialog } from '../components/ConfirmDialog';
import { FormError } from '../components/FormError';
import { taskTitle } from '../format/taskPresentation';
import { useAgents, useProject, useWorkState } from '../store/hooks';
import { machineOfPage } from '../transport/machinePage';
import { ConcurrencyControl } from './ConcurrencyControl';
import { MissingWorkState } from './MissingWorkState';
import { QueueBadges } from './QueueBadges';
import { RunTaskDialog } from './RunTaskDialog';
import { ShortcutSheet } from './ShortcutSheet';
import { TaskFilterBar } from './TaskFilterBar';
import { TaskGrid } from './TaskGrid';
import { useWorkStatePanel } from './useWorkStatePanel';

// xterm is most of the bundle and only the output viewer needs it.
const { Component: TaskOutputDialog } = preloadable(
  () => import('./output/TaskOutputDialog'),
  (module) => module.TaskOutputDialog,
);

/** The open project's background tasks: what waits, runs and ended, with cancel, retry and output. */
export function ProjectWorkStatePanel({ projectId }: { projectId: string }) {
  const status = useWorkState(projectId, 'status');
  const loadError = useWorkState(projectId, 'error');
  const loadErrorCode = useWorkState(projectId, 'errorCode');
  const agentsById = useWorkState(projectId, 'agentsById');
  const formerAgentsById = useWorkState(projectId, 'formerAgentsById');
  const worktreesByAgentId = useWorkState(projectId, 'worktreesByAgentId');
  const agents = useAgents(projectId);
  const projectPath = useProject(projectId)?.path ?? '';
  const headingId = useId();
  const { view, focus, output, tasks, runTaskForm, shortcuts } = useWorkStatePanel(projectId);
  const { confirming } = tasks;
  const machine = machineOfPage();

  return (
    <section className="panel work-state" aria-labelledby={headingId}>
      <header className="work-state__header">
        <h2 id={headingId} className="panel__title work-state__title">
          Work state
        </h2>
        {machine && <span className="machine-chip">on {machine}</span>}
        <QueueBadges counts={view.counts} />
        <span className="work-state__spacer" />
        <ConcurrencyControl projectId={projectId} />
        <button type="button" className="button button--ghost" onClick={runTaskForm.show}>
          Run task…
        </button>
        <button type="button" className="button button--ghost" aria-keyshortcuts="?" onClick={shortcuts.show}>
          Shortcuts <kbd>?</kbd>
        </button>
      </header>
      <TaskFilterBar
        filter={view.filter}
        onFilterChange={view.setFilter}
        query={view.query}
        onQueryChange={view.setQuery}
        searchRef={focus.searchRef}
        shownCount={view.visible.length}
      />
      <FormError message={tasks.error} className="work-state__error" />
      {status === 'error' && loadErrorCode === 'data-missing' ? (
        <MissingWorkState projectId={projectId} message={loadError ?? ''} />
      ) : status !== 'ready' && view.sorted.length === 0 ? (
        <p className={status === 'error' ? 'empty-state empty-state--error' : 'empty-state'}>
          {status === 'error' ? `Could not load the work state: ${loadError ?? 'unknown error'}` : 'Loading work state…'}
        </p>
      ) : (
        <TaskGrid
          tasks={view.visible}
          agentsById={agentsById}
          formerAgentsById={formerAgentsById}
          retryRefusalOf={tasks.refusalOf}
          worktreesByAgentId={worktreesByAgentId}
          selectedIndex={view.selectedIndex}
          gridRef={focus.gridRef}
          emptyMessage={
            view.sorted.length === 0
              ? 'No background tasks yet. Commands that agents hand to Drover show up here.'
              : 'No tasks match this filter.'
          }
          onSelect={view.select}
          onOpen={output.open}
          onCancel={tasks.requestCancel}
          onRetry={tasks.retry}
        />
      )}
      {confirming && (
        <ConfirmDialog
          title={`Cancel ${taskTitle(confirming)}?`}
          confirmLabel="Cancel task"
          dismissLabel="Keep running"
          onConfirm={() => tasks.confirmCancel(confirming)}
          onClose={focus.thenFocusGrid(tasks.stopConfirming)}
        >
          <p>Drover stops the command (SIGTERM to its process group, then SIGKILL after the grace period).</p>
          <p>
            <code className="inline-path">{confirming.command}</code>
          </p>
        </ConfirmDialog>
      )}
      {runTaskForm.shown && (
        <RunTaskDialog
          projectId={projectId}
          projectPath={projectPath}
          agents={agents}
          worktreesByAgentId={worktreesByAgentId}
          onCreated={runTaskForm.created}
          onClose={focus.thenFocusGrid(runTaskForm.hide)}
        />
      )}
      {shortcuts.shown && <ShortcutSheet onClose={focus.thenFocusGrid(shortcuts.hide)} />}
      {output.outputTask && (
        <LoadFailureBoundary what="the task's output">
          <TaskOutputDialog
            key={output.outputTask.id}
            task={output.outputTask}
            retryRefusal={tasks.refusalOf(output.outputTask)}
            onCancel={tasks.requestCancel}
            onRetry={tasks.retry}
            onClose={focus.thenFocusGrid(output.close)}
          />
        </LoadFailureBoundary>
      )}
    </section>
  );
}
