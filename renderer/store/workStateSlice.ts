import type { MethodParams } from '../../shared/contract';
import { isTaskFinished, type Task } from '../../shared/entities/tasks';
import type { BackgroundTaskChanged, DroverEvent } from '../../shared/events';
import type { Unsubscribe } from '../bridge';
import { Listeners } from '../transport/listeners';
import { AGENT_EVENTS, type AgentEvent } from './agentsSlice';
import { loadFailed, reloading, type Slice, type SliceContext, type StateCell } from './slice';
import { loadThroughGate, SnapshotGate } from './snapshotGate';
import { applyNewer, without } from './versioned';
import { EMPTY_WORK_STATE, fetchWorkState, updateWorkState, workStateFromSnapshot, type WorkStates, type WorkStateSlice } from './projectWorkState';

const WORK_STATE_EVENTS: readonly string[] = ['backgroundTaskChanged', ...AGENT_EVENTS];
export type WorkStateEvent = BackgroundTaskChanged | AgentEvent;

/** One event applied live (after the snapshot), with the project's work state before and after it. */
export interface LiveChange {
  event: WorkStateEvent;
  before: WorkStateSlice | undefined;
  after: WorkStateSlice;
}

function isWorkStateEvent(event: DroverEvent): event is WorkStateEvent {
  return WORK_STATE_EVENTS.includes(event.name);
}

export interface WorkStateActions {
  /** Starts following a project's work state (snapshot, then events); idempotent. */
  trackWorkState(projectId: string): void;
  /** Runs a command as a background task of the project (a person's, unless it names an owner agent). */
  createTask(params: MethodParams<'createTask'>): Promise<Task>;
  cancelTask(taskId: string): Promise<Task>;
  retryTask(taskId: string): Promise<Task>;
  /** Reads a project's work state again (after its database was restored from a backup). */
  reloadWorkState(projectId: string): void;
  /** The person's choice for a project whose state database is missing: start it with an empty one. */
  startProjectEmpty(projectId: string): Promise<void>;
  /**
   * Tasks seen ending live (an event moved them into a finished state); never fired for what a
   * snapshot reveals after a reload or reconnect. Toasts listen here, and so can a native notifier.
   */
  onTaskEnded(listener: (task: Task) => void): Unsubscribe;
}

interface WorkStatesSlice extends Slice<WorkStates, WorkStateActions> {
  /** Stops following a project (it was removed) and forgets its work state. */
  forget(projectId: string): void;
  /** Every event that changed a project's work state after its snapshot (never the snapshot itself). */
  onLiveChange(listener: (change: LiveChange) => void): Unsubscribe;
}

/**
 * The work state of each tracked project: one `getWorkState` snapshot, then the events newer than
 * it. Tasks are applied here; agent events go to `applyAgentEvent` (the agents slice).
 */
export function createWorkStateSlice(
  cell: StateCell<WorkStates>,
  { bridge, isOpen }: SliceContext,
  applyAgentEvent: (event: AgentEvent) => void,
): WorkStatesSlice {
  const gates = new Map<string, SnapshotGate<WorkStateEvent>>();
  const taskEndings = new Listeners<Task>();
  const liveChanges = new Listeners<LiveChange>();

  function applyTaskChanged({ projectId, task }: BackgroundTaskChanged): void {
    const previous = cell.get()[projectId]?.tasksById[task.id];
    updateWorkState(cell, projectId, (slice) => ({ ...slice, tasksById: applyNewer(slice.tasksById, task.id, task) }));
    const applied = cell.get()[projectId]?.tasksById[task.id] === task;
    if (applied && isTaskFinished(task.state) && !(previous && isTaskFinished(previous.state))) taskEndings.emit(task);
  }

  function apply(event: WorkStateEvent): void {
    const before = cell.get()[event.projectId];
    if (event.name === 'backgroundTaskChanged') applyTaskChanged(event);
    else applyAgentEvent(event);
    const after = cell.get()[event.projectId];
    if (after && after !== before) liveChanges.emit({ event, before, after });
  }

  function load(projectId: string, gate: SnapshotGate<WorkStateEvent>): void {
    const update = (change: (slice: WorkStateSlice) => WorkStateSlice) => updateWorkState(cell, projectId, change);
    void loadThroughGate(gate, () => fetchWorkState(bridge, projectId), {
      loading: () => update(reloading),
      followed: () => gates.get(projectId) === gate,
      loaded: (snapshot) => update(() => workStateFromSnapshot(snapshot)),
      failed: (message, code) => update((slice) => loadFailed(slice, message, code)),
      apply,
    });
  }

  const actions: WorkStateActions = {
    trackWorkState(projectId) {
      if (gates.has(projectId)) return;
      const gate = new SnapshotGate<WorkStateEvent>();
      gates.set(projectId, gate);
      updateWorkState(cell, projectId, () => EMPTY_WORK_STATE);
      if (isOpen()) load(projectId, gate);
    },
    createTask: async (params) => {
      const task = await bridge.call('createTask', params);
      updateWorkState(cell, task.projectId, (slice) => ({ ...slice, tasksById: applyNewer(slice.tasksById, task.id, task) }));
      return task;
    },
    cancelTask: (taskId) => bridge.call('cancelTask', { taskId }),
    retryTask: (taskId) => bridge.call('retryTask', { taskId }),
    onTaskEnded: (listener) => taskEndings.add(listener),
    reloadWorkState: (projectId) => reload(projectId),
    startProjectEmpty: async (projectId) => {
      await bridge.call('startProjectEmpty', { projectId });
      reload(projectId);
    },
  };

  function reload(projectId: string): void {
    const gate = gates.get(projectId);
    if (gate && isOpen()) load(projectId, gate);
  }

  return {
    initial: {},
    actions,
    refetch() {
      for (const [projectId, gate] of gates) load(projectId, gate);
    },
    onEvent(event) {
      if (isWorkStateEvent(event) && gates.get(event.projectId)?.admit(event)) apply(event);
    },
    forget(projectId) {
      gates.delete(projectId);
      cell.set((workStates) => without(workStates, projectId));
    },
    onLiveChange: (listener) => liveChanges.add(listener),
  };
}
