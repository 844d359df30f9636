import type { Agent } from '../../../shared/entities/agents';
import { isMergeQueueSettled, type MergeQueueEntry } from '../../../shared/entities/mergeQueue';
import { isTaskFinished, type Task } from '../../../shared/entities/tasks';
import { describeExit } from '../../common/taskExit';
import { fail } from '../errors';
import type { EventBus } from '../events/eventBus';
import type { MediatedInbox } from '../inbox/mediatedInbox';
import type { Locator } from '../locate';
import type { ProjectWork } from '../projects/projectMethods';
import type { ProjectRegistry } from '../projects/projectRegistry';
import type { ProjectStore, ProjectStores } from '../storage/projectStores';
import type { TaskService } from '../tasks/taskService';
import { describeTaskResult } from '../tasks/taskResultText';
import type { MergeStart } from '../worktrees/worktreeMerge';
import type { WorktreeService } from '../worktrees/worktreeService';

const UNDER_WAY: ReadonlySet<MergeQueueEntry['state']> = new Set(['rebasing', 'checking']);

/** What the queue asks of the worktrees: their state, and the checked merge split in its rebase and its landing. */
type QueueWorktrees = Pick<WorktreeService, 'checkMerge' | 'handBack' | 'rebaseOnParent' | 'merge' | 'tips'>;
type QueueTasks = Pick<TaskService, 'create' | 'cancel'>;

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** How one turn of an entry ended: it landed or was handed back (done), or its parent moved under its check (again). */
type Outcome = 'done' | 'again';

/**
 * Lands agents' branches on their parent branch one at a time, in queue order: each is rebased on
 * the parent's tip (the checked merge, refused as a merge is), checked with the project's check
 * command as a background task in its worktree, and fast-forwarded onto the parent only if the
 * check passed and neither moved meanwhile. A conflict or a failed check hands the entry back to
 * its agent through its inbox (which wakes it safely), and the queue goes on.
 */
export class MergeQueueService implements ProjectWork {
  /** The queues being worked now, by project and parent branch. */
  private readonly draining = new Set<string>();
  private readonly checkWaiters = new Map<string, (task: Task) => void>();
  private readonly closing = new Set<string>();
  private stopped = false;

  constructor(
    private readonly locator: Locator,
    private readonly projects: ProjectRegistry,
    private readonly stores: ProjectStores,
    private readonly events: EventBus,
    private readonly worktrees: QueueWorktrees,
    private readonly tasks: QueueTasks,
    private readonly inbox: MediatedInbox,
    private readonly log: (line: string) => void,
  ) {}

  /** Hears the check tasks end. */
  listen(): () => void {
    return this.events.onEvent((event) => {
      if (event.name !== 'backgroundTaskChanged' || !isTaskFinished(event.task.state)) return;
      const waiter = this.checkWaiters.get(event.task.id);
      this.checkWaiters.delete(event.task.id);
      waiter?.(event.task);
    });
  }

  list(projectId: string): MergeQueueEntry[] {
    this.projects.get(projectId);
    return this.stores.get(projectId).mergeQueue.list();
  }

  /** Puts the agent's branch last in its parent's queue; refused when there is nothing it could land. */
  async add(agentId: string): Promise<MergeQueueEntry> {
    const { store, agent } = this.locator.agent(agentId);
    const worktree = store.worktrees.get(agentId);
    if (!worktree) fail('invalid-state', `${agent.name} works in the project folder, not in a worktree of its own: it has no branch to queue for merge.`);
    const queued = store.mergeQueue.get(agentId);
    if (queued && !isMergeQueueSettled(queued.state)) fail('conflict', `${agent.name} is in the merge queue of ${queued.parentBranch} already (${queued.state}).`);
    // Refused when the parent branch is gone; what else is in the way is found again at its turn.
    const check = await this.worktrees.checkMerge(agentId);
    if (check.ahead === 0) fail('invalid-state', `Nothing to merge: ${worktree.branch} has no commits that ${worktree.parentBranch} lacks.`);
    const entry = this.announce(store, store.mergeQueue.enqueue({ agentId, branch: worktree.branch, parentBranch: worktree.parentBranch, queuedAt: Date.now() }));
    this.kick(store.projectId, entry.parentBranch);
    return entry;
  }

  /** Takes the agent's entry out of the queue; a check under way is cancelled and nothing of it lands. */
  remove(agentId: string): { agentId: string } {
    const { store, agent } = this.locator.agent(agentId);
    const entry = store.mergeQueue.get(agentId) ?? fail('not-found', `${agent.name} is not in the merge queue.`);
    const seq = store.mergeQueue.remove(agentId);
    this.events.emit({ name: 'mergeQueueChanged', seq, projectId: store.projectId, agentId, entry: null });
    if (entry.state === 'checking' && entry.checkTaskId) {
      try {
        this.tasks.cancel(entry.checkTaskId);
      } catch (error) {
        this.log(`could not cancel the merge check ${entry.checkTaskId}: ${messageOf(error)}`);
      }
    }
    return { agentId };
  }

  /**
   * Moves a waiting entry to `place` (1: next) among its parent's waiting entries; the entries under
   * way or settled keep their places. Returns the parent's queue as it then stands.
   */
  move(agentId: string, place: number): MergeQueueEntry[] {
    const { store, agent } = this.locator.agent(agentId);
    const entry = store.mergeQueue.get(agentId) ?? fail('not-found', `${agent.name} is not in the merge queue.`);
    if (entry.state !== 'queued') fail('invalid-state', `${agent.name}'s branch is ${entry.state}, not waiting: only a waiting entry moves.`);
    const sameParent = () => store.mergeQueue.list().filter((other) => other.parentBranch === entry.parentBranch);
    const waiting = sameParent().filter((other) => other.state === 'queued');
    const positions = waiting.map((other) => other.position);
    const order = waiting.filter((other) => other.agentId !== agentId);
    order.splice(Math.min(place, waiting.length) - 1, 0, entry);
    const moved = store.transaction(() =>
      order.flatMap((other, index) => (other.position === positions[index] ? [] : [store.mergeQueue.update(other.agentId, { position: positions[index] as number })])),
    );
    for (const changed of moved) this.announce(store, changed);
    return sameParent();
  }

  /**
   * Boot, before anything is served: an entry the host stopped under way is queued again in its
   * place, so it is rebased and checked anew; one that had already landed is found merged then.
   */
  reconcile(store: ProjectStore): number {
    const interrupted = store.mergeQueue.list().filter((entry) => UNDER_WAY.has(entry.state));
    for (const entry of interrupted) this.announce(store, store.mergeQueue.update(entry.agentId, { state: 'queued', reason: 'the host stopped while it was under way: taken again' }));
    return interrupted.length;
  }

  /** Starts every project's queues (the host serves clients now). */
  startAll(): void {
    for (const project of this.projects.list().projects) this.kickProject(project.id);
  }

  stop(): void {
    this.stopped = true;
  }

  async stopProject(projectId: string): Promise<void> {
    this.closing.add(projectId);
  }

  projectClosed(projectId: string): void {
    this.closing.delete(projectId);
  }

  /** Resumed: the queues go on. */
  settingsChanged(projectId: string): void {
    this.kickProject(projectId);
  }

  private kickProject(projectId: string): void {
    try {
      const parents = new Set(
        this.stores
          .get(projectId)
          .mergeQueue.list()
          .filter((entry) => entry.state === 'queued')
          .map((entry) => entry.parentBranch),
      );
      for (const parent of parents) this.kick(projectId, parent);
    } catch (error) {
      this.log(`could not start the merge queues of ${projectId}: ${messageOf(error)}`);
    }
  }

  private kick(projectId: string, parent: string): void {
    const key = `${projectId}\0${parent}`;
    if (this.stopped || this.draining.has(key)) return;
    this.draining.add(key);
    void this.drain(projectId, parent)
      .catch((error: unknown) => this.log(`the merge queue of ${parent} in ${projectId} stopped: ${messageOf(error)}`))
      .finally(() => this.draining.delete(key));
  }

  private async drain(projectId: string, parent: string): Promise<void> {
    while (!this.stopped && !this.closing.has(projectId) && this.stores.isOpen(projectId)) {
      const store = this.stores.get(projectId);
      if (store.settings.get().mergeQueuePaused) return;
      const next = store.mergeQueue.list().find((entry) => entry.parentBranch === parent && entry.state === 'queued');
      if (!next) return;
      while ((await this.land(store, next.agentId)) === 'again') this.log(`${parent} moved while ${next.branch} was checked: rebasing and checking it again`);
    }
  }

  /** One turn of the entry: rebase, check, land; whatever stops it on the way hands it back. */
  private async land(store: ProjectStore, agentId: string): Promise<Outcome> {
    const agent = store.agents.get(agentId);
    if (!agent || !store.mergeQueue.get(agentId)) return 'done';
    let rebased: MergeStart | null = null;
    try {
      this.set(store, agentId, { state: 'rebasing', reason: null, checkTaskId: null });
      const check = await this.worktrees.checkMerge(agentId);
      if (check.ahead === 0) {
        this.set(store, agentId, { state: 'merged', reason: `${check.parentBranch} already holds every commit of ${check.branch}` });
        return 'done';
      }
      if (check.conflicts.length > 0) {
        await this.worktrees.handBack(agentId);
        return this.handedBack(store, agentId, `conflicts with ${check.parentBranch} in ${check.conflicts.join(', ')}`);
      }
      if (check.problem) return this.handBack(store, agent, check.problem);
      rebased = await this.worktrees.rebaseOnParent(agentId);
      if (!this.stillQueued(store, agentId)) return 'done';
      const checked = await this.runCheck(store, agent);
      if (checked !== 'passed') return checked;
      const merged = await this.worktrees.merge(agentId, 'rebase', undefined, rebased);
      if (this.stillQueued(store, agentId)) this.set(store, agentId, { state: 'merged', reason: null, mergedCommit: merged.commit });
      return 'done';
    } catch (error) {
      // Cut short by the host stopping: the entry stays under way, and the next boot takes it again.
      if (this.stopped) return 'done';
      if (rebased && (await this.moved(agentId, rebased))) return 'again';
      return this.handBack(store, agent, messageOf(error));
    }
  }

  /** Runs the project's check command in the agent's worktree and waits for its end; with none set, it passes. */
  private async runCheck(store: ProjectStore, agent: Agent): Promise<'passed' | Outcome> {
    const command = store.settings.get().mergeCheckCommand;
    if (!command) return 'passed';
    const worktree = store.worktrees.get(agent.id) ?? fail('invalid-state', `${agent.name} has no worktree any more.`);
    const task = this.tasks.create({ projectId: store.projectId, command, cwd: worktree.folder, label: `merge check of ${agent.name}` });
    // A command that cannot start ends within create, before anyone waits: its end is in the store then.
    const endedAlready = store.tasks.get(task.id);
    const ended =
      endedAlready && isTaskFinished(endedAlready.state) ? Promise.resolve(endedAlready) : new Promise<Task>((resolve) => this.checkWaiters.set(task.id, resolve));
    this.set(store, agent.id, { state: 'checking', checkTaskId: task.id });
    const result = await ended;
    // Stopped with the host: the entry stays under way, and the next boot checks it again.
    if (this.stopped || !this.stillQueued(store, agent.id)) return 'done';
    if (result.state === 'succeeded') return 'passed';
    const exit = describeExit(result);
    this.post(store, agent, `Your branch ${worktree.branch} was not merged into ${worktree.parentBranch}: its check failed. Fix what it reports, commit, and queue it for merge again.\n\n${describeTaskResult(result)}`);
    return this.handedBack(store, agent.id, `the check ${result.state === 'failed' ? 'failed' : 'did not finish'}: ${exit}`);
  }

  /** Whether the parent or the branch moved since it was rebased to `rebased`. */
  private async moved(agentId: string, rebased: MergeStart): Promise<boolean> {
    const now = await this.worktrees.tips(agentId).catch(() => null);
    return now !== null && now.onto !== '' && (now.onto !== rebased.onto || now.branchTip !== rebased.branchTip);
  }

  private handBack(store: ProjectStore, agent: Agent, reason: string): Outcome {
    const entry = store.mergeQueue.get(agent.id);
    if (entry) this.post(store, agent, `Your branch ${entry.branch} was not merged into ${entry.parentBranch}: ${reason}`);
    return this.handedBack(store, agent.id, reason);
  }

  private handedBack(store: ProjectStore, agentId: string, reason: string): Outcome {
    this.set(store, agentId, { state: 'handed-back', reason });
    return 'done';
  }

  private post(store: ProjectStore, agent: Agent, body: string): void {
    try {
      this.inbox.post(store.projectId, { agentId: agent.id, kind: 'note', body });
    } catch (error) {
      this.log(`could not tell ${agent.name} why its branch was handed back: ${messageOf(error)}`);
    }
  }

  private stillQueued(store: ProjectStore, agentId: string): boolean {
    const entry = store.mergeQueue.get(agentId);
    return entry !== undefined && UNDER_WAY.has(entry.state);
  }

  private set(store: ProjectStore, agentId: string, change: Parameters<ProjectStore['mergeQueue']['update']>[1]): void {
    if (store.mergeQueue.get(agentId)) this.announce(store, store.mergeQueue.update(agentId, change));
  }

  private announce(store: ProjectStore, entry: MergeQueueEntry): MergeQueueEntry {
    this.events.emit({ name: 'mergeQueueChanged', seq: entry.seq, projectId: store.projectId, agentId: entry.agentId, entry });
    return entry;
  }
}
