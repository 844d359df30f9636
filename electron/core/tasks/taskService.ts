import fs from 'node:fs';
import path from 'node:path';
import { isTaskFinished, type Agent, type Task, type TaskOutput, type TaskState } from '../../../shared/entities';
import { fail } from '../errors';
import type { EventBus } from '../events/eventBus';
import { newId } from '../ids';
import type { Locator } from '../locate';
import type { ProjectWork } from '../projects/projectMethods';
import { isInside, type ProjectRegistry } from '../projects/projectRegistry';
import type { ProjectStore, ProjectStores } from '../storage/projectStores';
import type { NewTask, TaskChange } from '../storage/taskStore';
import { TaskLog } from './taskLog';
import { readLogSlice } from './taskLogReader';
import { envForFolder, workspaceOf } from '../worktrees/agentWorkspace';
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

  constructor(
    private readonly locator: Locator,
    private readonly projects: ProjectRegistry,
    private readonly stores: ProjectStores,
    private readonly events: EventBus,
    private readonly env: Record<string, string>,
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
    return this.locate(taskId).task;
  }

  list(projectId: string, states?: readonly TaskState[]): Task[] {
    this.projects.get(projectId);
    return this.stores.get(projectId).tasks.list(states);
  }

  cancel(taskId: string): Task {
    const { store, task } = this.locate(taskId);
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
    const cancelling = this.change(store, taskId, { state: 'cancelling', reason: 'cancelled by request' });
    if (runner) this.terminate(runner, store.settings.get().cancelGraceMs);
    return cancelling;
  }

  retry(taskId: string): Task {
    const { store, task } = this.locate(taskId);
    this.refuseIfClosing(store.projectId);
    if (!isTaskFinished(task.state)) {
      fail('invalid-state', `Task ${taskId} is ${task.state}; only a finished task can be retried (cancel it first).`);
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
    const id = newId('t');
    const task = store.tasks.insert({ ...fields, id, createdAt: Date.now(), logPath: path.join(store.logsDir, `${id}.log`) });
    this.announce(task);
    this.pump(store.projectId);
    return store.tasks.get(id) as Task;
  }

  /** The concurrency limit may have risen: start what now fits. */
  settingsChanged(projectId: string): void {
    this.pump(projectId);
  }

  /** Starts queued tasks while the project is under its concurrency limit. */
  pump(projectId: string): void {
    if (this.stopping || this.closing.has(projectId)) return;
    const store = this.stores.get(projectId);
    const limit = store.settings.get().taskConcurrency;
    while (this.runningCount(projectId) < limit) {
      const next = store.tasks.oldestQueued();
      if (!next) return;
      this.start(store, next);
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
  }

  isRunning(taskId: string): boolean {
    return this.running.has(taskId);
  }

  private async stopRunners(runners: [string, RunningTask][], reason: string): Promise<void> {
    await Promise.all(
      runners.map(([taskId, runner]) => {
        const store = this.stores.get(runner.projectId);
        if (store.tasks.get(taskId)?.state === 'running') this.change(store, taskId, { state: 'cancelling', reason });
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

  private start(store: ProjectStore, task: Task): void {
    const settings = store.settings.get();
    const log = new TaskLog(task.logPath, settings.taskOutputCapBytes);
    let process: TaskProcess;
    try {
      if (!fs.existsSync(task.cwd)) fail('spawn-failed', `working folder ${task.cwd} no longer exists`);
      process = new TaskProcess({
        command: task.command,
        cwd: task.cwd,
        env: { ...this.env, ...envForFolder(store, task.cwd), DROVER_TASK_ID: task.id, DROVER_PROJECT_ID: store.projectId },
        onData: (data) => {
          log.append(data);
          this.events.emitOutput({ taskId: task.id, projectId: store.projectId, data });
        },
        onExit: (exit) => {
          this.finish(store, task.id, exit).catch((error: unknown) => this.onBackgroundError(task.id, error));
        },
      });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      log.append(`[drover] could not start the command: ${message}\r\n`);
      void log.close();
      this.change(store, task.id, {
        state: 'failed',
        reason: `spawn-failed: ${message}`,
        startedAt: Date.now(),
        endedAt: Date.now(),
        outputBytes: log.bytesWritten,
      });
      return;
    }
    this.running.set(task.id, { projectId: store.projectId, process, log });
    this.change(store, task.id, { state: 'running', startedAt: Date.now(), pid: process.pid, pidStartTime: process.startTime });
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
    try {
      await runner.log.close();
      if (!this.stores.isOpen(store.projectId)) return;
      const task = store.tasks.get(taskId);
      if (task) this.change(store, taskId, endState(task, exit, runner.log));
    } finally {
      this.running.delete(taskId);
      this.exitWaiters.get(taskId)?.();
      this.exitWaiters.delete(taskId);
    }
    this.pump(store.projectId);
  }

  private onBackgroundError(taskId: string, error: unknown): void {
    this.log(`task ${taskId}: ${error instanceof Error ? error.message : String(error)}`);
  }

  private change(store: ProjectStore, taskId: string, change: TaskChange): Task {
    const task = store.tasks.update(taskId, change);
    this.announce(task);
    return task;
  }

  private announce(task: Task): void {
    this.events.emit({ name: 'backgroundTaskChanged', seq: task.seq, projectId: task.projectId, task });
  }

  private locate(taskId: string): { store: ProjectStore; task: Task } {
    return this.locator.task(taskId);
  }
}

function endState(task: Task, exit: TaskProcessExit, log: TaskLog): TaskChange {
  const logNote = log.error ? `; output not fully saved: ${log.error.message}` : '';
  const common = { endedAt: Date.now(), exitCode: exit.exitCode, signal: exit.signal, outputBytes: log.bytesWritten };
  if (task.state === 'cancelling') {
    const interrupted = task.reason === 'app-quit' || task.reason?.startsWith('project-removed');
    return { ...common, state: interrupted ? 'interrupted' : 'cancelled', reason: `${task.reason ?? 'cancelled'}${logNote}` };
  }
  if (exit.exitCode === 0 && exit.signal === null) return { ...common, state: 'succeeded', reason: logNote ? logNote.slice(2) : null };
  const why = exit.signal ? `killed by ${exit.signal}` : `exit code ${exit.exitCode}`;
  return { ...common, state: 'failed', reason: `${why}${logNote}` };
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
  const projectRoot = roots[0] ?? home;
  const absolute = path.resolve(home, requested);
  let canonical: string;
  try {
    canonical = fs.realpathSync(absolute);
  } catch {
    fail('invalid-path', `No such folder: ${absolute}`);
  }
  if (!fs.statSync(canonical).isDirectory()) fail('invalid-path', `Not a folder: ${canonical}`);
  if (!roots.some((root) => isInside(root, canonical))) {
    const worktrees = roots.length > 1 ? ' and its agents\' worktrees' : '';
    fail('invalid-path', `The folder ${canonical} is outside the project (${projectRoot})${worktrees}; tasks run inside their project.`);
  }
  return canonical;
}
