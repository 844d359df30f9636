import fs from 'node:fs';
import path from 'node:path';
import type { Agent } from '../../../shared/entities/agents';
import type { ProjectSettings } from '../../../shared/entities/projects';
import { isTaskFinished, type Task, type TaskOutput, type TaskState } from '../../../shared/entities/tasks';
import { isInside } from '../../../shared/folders';
import { describeExit } from '../../common/taskExit';
import { fail } from '../errors';
import type { EventBus } from '../events/eventBus';
import { newId } from '../ids';
import type { Locator } from '../locate';
import { pageOf } from '../paging';
import type { ProjectWork } from '../projects/projectMethods';
import type { ProjectRegistry } from '../projects/projectRegistry';
import type { ProjectStore, ProjectStores } from '../storage/projectStores';
import type { NewTask, TaskChange } from '../storage/taskStore';
import { envForFolder, workspaceOf } from '../workspaces/agentWorkspace';
import type { WorktreeHolds } from '../workspaces/worktreeHolds';
import { announceTask } from './taskAnnouncer';
import { TaskLog } from './taskLog';
import { readLogSlice } from './taskLogReader';
import { TaskProcess, type TaskProcessExit } from './taskProcess';

export interface CreateTaskInput {
  projectId: string;
  command: string;
  cwd?: string | undefined;
  ownerAgentId?: string | undefined;
  label?: string | undefined;
}

interface RunningTask {
  projectId: string;
  process: TaskProcess;
  log: TaskLog;
  cancelKill?: () => void;
  /** The process has exited and its end is being recorded. */
  exited?: boolean;
  /** Why it is being stopped, when that could not be saved (the disk was full). */
  stopReason?: string;
}

/** A task's end the disk refused: kept here, shown as the truth, and saved when the disk allows. */
interface UnsavedEnd {
  store: ProjectStore;
  change: TaskChange;
}

const SAVE_RETRY_MS = { first: 500, last: 15_000 };

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Runs each project's background tasks: FIFO queue under the project's concurrency limit, one PTY
 * per task in its own process group, output to a capped log and to watchers, and every state change
 * written first and then announced.
 */
export class TaskService implements ProjectWork {
  private readonly running = new Map<string, RunningTask>();
  private readonly exitWaiters = new Map<string, () => void>();
  /** Projects being removed: nothing new starts in them. */
  private readonly closing = new Set<string>();
  private stopping = false;
  private readonly unsavedEnds = new Map<string, UnsavedEnd>();
  /** Projects whose queue stopped because a task's start could not be saved. */
  private readonly stalled = new Set<string>();
  private saveRetry: NodeJS.Timeout | null = null;
  private saveRetryMs = SAVE_RETRY_MS.first;

  constructor(
    private readonly locator: Locator,
    private readonly projects: ProjectRegistry,
    private readonly stores: ProjectStores,
    private readonly events: EventBus,
    /** The environment a task of a project with these settings starts from. */
    private readonly envFor: (settings: ProjectSettings) => Record<string, string>,
    /** Worktrees no task may start in right now (a restore rewrites their files). */
    private readonly holds: WorktreeHolds,
    private readonly log: (line: string) => void,
  ) {}

  create(input: CreateTaskInput): Task {
    const project = this.projects.get(input.projectId);
    this.refuseIfClosing(project.id);
    const store = this.stores.get(project.id);
    const owner = input.ownerAgentId === undefined ? null : ownerOf(store, input.ownerAgentId);
    // An agent's tasks run where the agent works (its worktree), unless told otherwise.
    const home = owner ? workspaceOf(store, owner, project.path).folder : project.path;
    const worktrees = store.worktrees.list().filter((worktree) => worktree.state === 'ready');
    const cwd = resolveTaskCwd(home, [project.path, ...worktrees.map((worktree) => worktree.path)], input.cwd);
    return this.enqueue(store, {
      ownerAgentId: owner?.id ?? null,
      label: input.label ?? null,
      command: input.command,
      cwd,
      attempt: 1,
      retryOf: null,
    });
  }

  get(taskId: string): Task {
    return this.present(this.locate(taskId).task);
  }

  /** The task as it truly stands: with its end, when that end could not be saved yet. */
  present(task: Task): Task {
    const unsaved = this.unsavedEnds.get(task.id);
    return unsaved ? { ...task, ...unsaved.change } : task;
  }

  /** A page of the project's tasks, newest first, continued after the task `after`. */
  page(projectId: string, request: { states?: readonly TaskState[] | undefined; after?: string | undefined; limit?: number | undefined }): { tasks: Task[]; next: string | null } {
    this.projects.get(projectId);
    const rows = this.stores.get(projectId).tasks.newestFirst(request);
    if (!rows) fail('not-found', `No task ${request.after} in this project to continue the list after.`);
    const { items, next } = pageOf(rows, request.limit);
    return { tasks: this.unsavedEnds.size > 0 ? items.map((task) => this.present(task)) : items, next };
  }

  cancel(taskId: string): Task {
    const located = this.locate(taskId);
    const { store } = located;
    const task = this.present(located.task);
    if (task.state === 'queued') {
      return this.change(store, taskId, { state: 'cancelled', reason: 'cancelled before it started', endedAt: Date.now() });
    }
    if (task.state === 'cancelling') return task;
    if (task.state !== 'running') {
      fail('invalid-state', `Task ${taskId} has already ended (${task.state}); there is nothing to cancel.`);
    }
    const runner = this.running.get(taskId);
    // It already exited; its real end is being recorded and is the truth.
    if (runner?.exited) return task;
    const cancelling = this.markStopping(store, task, runner, 'cancelled by request');
    if (runner) this.terminate(runner, store.settings.get().cancelGraceMs);
    return cancelling;
  }

  /**
   * Records that a running task is being stopped and why. When the disk refuses, the stop goes on
   * all the same: the reason is kept with the runner and its end says it.
   */
  private markStopping(store: ProjectStore, task: Task, runner: RunningTask | undefined, reason: string): Task {
    try {
      return this.change(store, task.id, { state: 'cancelling', reason });
    } catch (error) {
      if (!runner) throw error;
      runner.stopReason = reason;
      this.log(`task ${task.id}: could not save that it is being stopped (${messageOf(error)}); stopping it anyway`);
      return { ...task, state: 'cancelling', reason };
    }
  }

  retry(taskId: string): Task {
    const { store, task } = this.locate(taskId);
    this.refuseIfClosing(store.projectId);
    if (!isTaskFinished(task.state)) {
      fail('invalid-state', `Task ${taskId} is ${task.state}; only a finished task can be retried (cancel it first).`);
    }
    if (!fs.existsSync(task.cwd)) {
      const former = task.ownerAgentId ? store.formerAgents.get(task.ownerAgentId) : undefined;
      const why = former?.worktreePath && isInside(former.worktreePath, task.cwd) ? `: it was ${former.name}'s worktree, removed with the agent` : '';
      fail('invalid-state', `Task ${taskId} cannot run again: its folder ${task.cwd} no longer exists${why}. Run the command anew in another folder.`);
    }
    return this.enqueue(store, {
      ownerAgentId: task.ownerAgentId,
      label: task.label,
      command: task.command,
      cwd: task.cwd,
      attempt: task.attempt + 1,
      retryOf: task.id,
    });
  }

  readOutput(taskId: string, request: { offset?: number; tailBytes?: number; maxBytes?: number }): TaskOutput {
    const { task } = this.locate(taskId);
    return { taskId, ...readLogSlice(task.logPath, request) };
  }

  private enqueue(store: ProjectStore, fields: Omit<NewTask, 'id' | 'createdAt' | 'logPath'>): Task {
    this.holds.refuseTaskIn(fields.cwd);
    const id = newId('t');
    const task = store.tasks.insert({ ...fields, id, createdAt: Date.now(), logPath: path.join(store.logsDir, `${id}.log`) });
    announceTask(this.events, task);
    this.pump(store.projectId);
    return store.tasks.get(id) as Task;
  }

  /** The concurrency limit may have risen: start what now fits. */
  settingsChanged(projectId: string): void {
    this.pump(projectId);
  }

  /**
   * Starts queued tasks while the project is under its concurrency limit. A start the disk refuses
   * leaves the task queued and the queue is tried again on its own once saving works.
   */
  pump(projectId: string): void {
    if (this.stopping || this.closing.has(projectId)) return;
    const store = this.stores.get(projectId);
    const limit = store.settings.get().taskConcurrency;
    while (this.runningCount(projectId) < limit) {
      const next = store.tasks.oldestQueued();
      if (!next) return;
      if (!this.start(store, next)) {
        this.stalled.add(projectId);
        this.scheduleSaveRetry();
        return;
      }
    }
  }

  private pumpLogged(projectId: string): void {
    try {
      this.pump(projectId);
    } catch (error) {
      this.log(`could not start queued tasks of ${projectId}: ${messageOf(error)}`);
    }
  }

  /** Stops every task of a project that is being removed (rows end interrupted); nothing new starts. */
  async stopProject(projectId: string): Promise<void> {
    this.closing.add(projectId);
    const runners = [...this.running.entries()].filter(([, runner]) => runner.projectId === projectId);
    await this.stopRunners(runners, 'project-removed');
  }

  /** The project is gone (or its removal failed): forget that it was closing. */
  projectClosed(projectId: string): void {
    this.closing.delete(projectId);
  }

  private refuseIfClosing(projectId: string): void {
    if (this.closing.has(projectId)) fail('invalid-state', 'This project is being removed; it takes no new tasks.');
  }

  /** App shutdown: tasks are stopped and recorded as interrupted so nothing is left orphaned. */
  async shutdown(): Promise<void> {
    this.stopping = true;
    await this.stopRunners([...this.running.entries()], 'app-quit');
    if (this.saveRetry) clearTimeout(this.saveRetry);
    this.saveRetry = null;
    this.saveUnsaved();
    for (const taskId of this.unsavedEnds.keys()) this.log(`task ${taskId}: its end could not be saved before quitting; the next start records it as interrupted`);
  }

  isRunning(taskId: string): boolean {
    return this.running.has(taskId);
  }

  private async stopRunners(runners: [string, RunningTask][], reason: string): Promise<void> {
    await Promise.all(
      runners.map(([taskId, runner]) => {
        const store = this.stores.get(runner.projectId);
        const task = store.tasks.get(taskId);
        if (task?.state === 'running') this.markStopping(store, task, runner, reason);
        const exited = new Promise<void>((resolve) => this.exitWaiters.set(taskId, resolve));
        this.terminate(runner, 2_000);
        return exited;
      }),
    );
  }

  private runningCount(projectId: string): number {
    let count = 0;
    for (const runner of this.running.values()) if (runner.projectId === projectId) count++;
    return count;
  }

  /**
   * Starts one queued task: it is saved as running before its command runs, so a start the disk
   * refuses runs nothing (false: the task stays queued). Returns true once the task has left the
   * queue, started or failed to start.
   */
  private start(store: ProjectStore, queued: Task): boolean {
    let task: Task;
    try {
      task = store.tasks.update(queued.id, { state: 'running', startedAt: Date.now() });
    } catch (error) {
      this.log(`task ${queued.id} stays queued: its start could not be saved (${messageOf(error)}); trying again shortly`);
      return false;
    }
    const settings = store.settings.get();
    const log = new TaskLog(task.logPath, settings.taskOutputCapBytes);
    let process: TaskProcess;
    try {
      if (!fs.existsSync(task.cwd)) fail('spawn-failed', `working folder ${task.cwd} no longer exists`);
      process = new TaskProcess({
        command: task.command,
        cwd: task.cwd,
        env: { ...this.envFor(settings), ...envForFolder(store, task.cwd), DROVER_TASK_ID: task.id, DROVER_PROJECT_ID: store.projectId },
        onData: (data) => {
          log.append(data);
          this.events.emitOutput({ taskId: task.id, projectId: store.projectId, data });
        },
        onExit: (exit) => {
          this.finish(store, task.id, exit).catch((error: unknown) => this.onBackgroundError(task.id, error));
        },
      });
    } catch (error) {
      const message = messageOf(error);
      log.append(`[drover] could not start the command: ${message}\r\n`);
      void log.close();
      this.recordEnd(store, task, { state: 'failed', reason: `spawn-failed: ${message}`, endedAt: Date.now(), outputBytes: log.bytesWritten });
      return true;
    }
    this.running.set(task.id, { projectId: store.projectId, process, log });
    try {
      task = store.tasks.update(task.id, { pid: process.pid, pidStartTime: process.startTime });
    } catch (error) {
      this.log(`task ${task.id}: its pid could not be saved (${messageOf(error)}); it runs, but a crash of Drover now could not find its processes`);
    }
    announceTask(this.events, task);
    return true;
  }

  private terminate(runner: RunningTask, graceMs: number): void {
    runner.cancelKill?.();
    runner.cancelKill = runner.process.terminate(graceMs);
  }

  private async finish(store: ProjectStore, taskId: string, exit: TaskProcessExit): Promise<void> {
    const runner = this.running.get(taskId);
    if (!runner) return;
    runner.exited = true;
    runner.cancelKill?.();
    await runner.log.close();
    this.running.delete(taskId);
    try {
      const task = this.stores.isOpen(store.projectId) ? store.tasks.get(taskId) : undefined;
      if (task) this.recordEnd(store, task, endState(task, exit, runner));
    } finally {
      this.exitWaiters.get(taskId)?.();
      this.exitWaiters.delete(taskId);
    }
    this.pumpLogged(store.projectId);
  }

  /**
   * Saves how a task ended. When the disk refuses (it is full), the end is kept in memory, shown
   * to every client as the truth, and saved as soon as the disk allows.
   */
  private recordEnd(store: ProjectStore, task: Task, change: TaskChange): void {
    try {
      this.change(store, task.id, change);
    } catch (error) {
      this.unsavedEnds.set(task.id, { store, change });
      this.log(`task ${task.id} ended (${change.state ?? task.state}) but that could not be saved (${messageOf(error)}); kept in memory until it can be`);
      announceTask(this.events, { ...task, ...change, seq: store.seq.next() });
      this.scheduleSaveRetry();
    }
  }

  private scheduleSaveRetry(): void {
    if (this.saveRetry || this.stopping) return;
    this.saveRetry = setTimeout(() => {
      this.saveRetry = null;
      this.retrySaving();
    }, this.saveRetryMs);
  }

  /** Saves the ends kept in memory, then restarts the queues a refused start stopped. */
  private retrySaving(): void {
    this.saveUnsaved();
    if (this.unsavedEnds.size === 0) {
      const stalled = [...this.stalled];
      this.stalled.clear();
      for (const projectId of stalled) this.pumpLogged(projectId);
    }
    if (this.unsavedEnds.size === 0 && this.stalled.size === 0) {
      this.saveRetryMs = SAVE_RETRY_MS.first;
      return;
    }
    this.saveRetryMs = Math.min(this.saveRetryMs * 2, SAVE_RETRY_MS.last);
    this.scheduleSaveRetry();
  }

  private saveUnsaved(): void {
    for (const [taskId, { store, change }] of this.unsavedEnds) {
      if (!this.stores.isOpen(store.projectId)) {
        this.unsavedEnds.delete(taskId);
        continue;
      }
      try {
        this.change(store, taskId, change);
      } catch {
        return;
      }
      this.unsavedEnds.delete(taskId);
      this.log(`task ${taskId}: its end is saved now`);
    }
  }

  private onBackgroundError(taskId: string, error: unknown): void {
    this.log(`task ${taskId}: ${error instanceof Error ? error.message : String(error)}`);
  }

  private change(store: ProjectStore, taskId: string, change: TaskChange): Task {
    return announceTask(this.events, store.tasks.update(taskId, change));
  }

  private locate(taskId: string): { store: ProjectStore; task: Task } {
    return this.locator.task(taskId);
  }
}

function endState(task: Task, exit: TaskProcessExit, runner: RunningTask): TaskChange {
  const { log } = runner;
  const logNote = log.error ? `; output not fully saved: ${log.error.message}` : '';
  const common = { endedAt: Date.now(), exitCode: exit.exitCode, signal: exit.signal, outputBytes: log.bytesWritten };
  const stopReason = task.state === 'cancelling' ? (task.reason ?? 'cancelled') : runner.stopReason;
  if (stopReason !== undefined) {
    const interrupted = stopReason === 'app-quit' || stopReason.startsWith('project-removed');
    return { ...common, state: interrupted ? 'interrupted' : 'cancelled', reason: `${stopReason}${logNote}` };
  }
  if (exit.exitCode === 0 && exit.signal === null) return { ...common, state: 'succeeded', reason: logNote ? logNote.slice(2) : null };
  return { ...common, state: 'failed', reason: `${describeExit(exit)}${logNote}` };
}

/** A task's owner, named by agent id or name, must be an agent of the task's project. */
function ownerOf(store: ProjectStore, agent: string): Agent {
  const owner = store.agents.byIdOrName(agent);
  if (!owner) {
    const names = store.agents.list().map((a) => a.name).join(', ') || 'none yet';
    fail('not-found', `No agent ${agent} in this project (agents: ${names}); its task's result would have nowhere to go.`);
  }
  return owner;
}

/**
 * The folder a task runs in: `home` by default (the project root, or its owner's worktree), a
 * relative folder from there, and never outside the project (`roots[0]`) and its agents' worktrees.
 */
export function resolveTaskCwd(home: string, roots: readonly string[], requested: string | undefined): string {
  if (requested === undefined) return home;
  const absolute = path.resolve(home, requested);
  const outside = (folder: string) => {
    const worktrees = roots.length > 1 ? " and its agents' worktrees" : '';
    return fail('invalid-path', `The folder ${folder} is outside the project (${roots[0] ?? home})${worktrees}; tasks run inside their project. A relative folder is taken from ${home}.`);
  };
  let canonical: string;
  try {
    canonical = fs.realpathSync(absolute);
  } catch {
    // A missing folder outside the project is refused as outside: `../../etc` is not "missing".
    if (!roots.some((root) => isInside(root, absolute))) outside(absolute);
    fail('invalid-path', `No such folder: ${absolute}`);
  }
  if (!fs.statSync(canonical).isDirectory()) fail('invalid-path', `Not a folder: ${canonical}`);
  if (!roots.some((root) => isInside(root, canonical))) outside(canonical);
  return canonical;
}
