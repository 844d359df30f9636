import type { Agent } from '../../../shared/entities/agents';
import type { InboxMessage } from '../../../shared/entities/inbox';
import type { AgentSession } from '../../../shared/entities/sessions';
import type { Worktree } from '../../../shared/entities/worktrees';
import type { DroverEvent } from '../../../shared/events';
import { restoreRefusal } from '../../../shared/restoreRefusal';
import { MAX_TURN_PROMPT_CHARS, type CheckpointUsage, type Turn, type TurnDiff } from '../../../shared/turns';
import { fail } from '../errors';
import type { EventBus } from '../events/eventBus';
import { changedFiles, lineTotals, withinBudget } from '../git/diff';
import type { Git } from '../git/runner';
import type { MediatedInbox } from '../inbox/mediatedInbox';
import type { Locator } from '../locate';
import type { ProjectWork } from '../projects/projectMethods';
import type { ProjectRegistry } from '../projects/projectRegistry';
import type { ProjectStore, ProjectStores } from '../storage/projectStores';
import { checkpointRef, type NewTurn } from '../storage/turnStore';
import { requireUsable } from '../workspaces/agentWorkspace';
import type { WorktreeCheckouts } from '../worktrees/worktreeCheckouts';
import type { WorktreeHolds } from '../workspaces/worktreeHolds';
import { applyRevert, checkRevert, planRevert, type RevertRequest } from './changeRevert';
import { checkpointRefsOf, type Checkpoints } from './checkpoints';
import { restoredNote, revertedNote } from './turnWords';

/** Every agent's checkpoints in a repository, for telling whether a commit has another holder. */
const ALL_CHECKPOINTS = 'refs/drover/checkpoints';
const DAY_MS = 24 * 60 * 60 * 1000;

interface SessionSeen {
  sessionId: string;
  state: AgentSession['state'];
  /** When the turn under way started (the session went busy). */
  turnStartedAt: number | null;
}

export interface TurnServiceOptions {
  log(line: string): void;
}

/**
 * An agent's turns, each ending in a checkpoint of its worktree: when its first session starts (the
 * start, checkpoint 0) and whenever a turn ends (the session leaves busy). A person can look at what
 * each turn changed and put the worktree back as any checkpoint had it, and undo that. Git work for
 * one agent runs one piece at a time, in order; checkpoints are pruned by the project's settings.
 */
export class TurnService implements ProjectWork {
  private readonly seen = new Map<string, SessionSeen>();
  /** The prompt of each agent's next (or current) turn, once known. */
  private readonly prompts = new Map<string, string>();
  private readonly queues = new Map<string, Promise<void>>();

  constructor(
    private readonly locator: Locator,
    private readonly projects: ProjectRegistry,
    private readonly stores: ProjectStores,
    private readonly events: EventBus,
    private readonly inbox: MediatedInbox,
    private readonly git: Git,
    private readonly checkouts: WorktreeCheckouts,
    private readonly checkpoints: Checkpoints,
    private readonly holds: WorktreeHolds,
    private readonly options: TurnServiceOptions,
  ) {}

  /** Follows sessions (a turn ends when one leaves busy) and worktrees going; returns the unsubscribe. */
  listen(): () => void {
    return this.events.onEvent((event) => this.onEvent(event));
  }

  /** A turn's prompt became known (a hook, a shell command); the first one before the turn ends names it. */
  notePrompt(agentId: string, prompt: string): void {
    if (!this.prompts.has(agentId)) this.prompts.set(agentId, prompt.slice(0, MAX_TURN_PROMPT_CHARS));
  }

  /** Settles once the agent's git work queued so far (the checkpoint of a turn that ended) is done. */
  settled(agentId: string): Promise<void> {
    return this.queues.get(agentId) ?? Promise.resolve();
  }

  list(agentId: string): Turn[] {
    const { store } = this.locator.agent(agentId);
    return store.turns.list(agentId);
  }

  /**
   * The change of checkpoints `from` through `to`, or from before `from` to the worktree now (`to`
   * null). A restore's or a revert's checkpoint alone reads as what undoing it brings back: from
   * the state it left the worktree in to the state it kept.
   */
  async diff(agentId: string, from: number, to: number | null): Promise<TurnDiff> {
    const { store, agent, worktree } = this.requireWorktree(agentId);
    if (to !== null && to < from) fail('bad-request', `Checkpoint ${to} comes before ${from}: name the earlier one first.`);
    const first = this.requireTurn(store, agent, from);
    const checkout = await this.checkouts.of(worktree);
    const undoable = to === from && (first.kind === 'restore' || first.kind === 'revert');
    const base = undoable ? first.after : (first.before ?? first.commit);
    const head = undoable ? first.commit : to === null ? await this.checkpoints.tree(checkout) : this.requireTurn(store, agent, to).after;
    const files = withinBudget(await changedFiles(this.git, checkout, [base, head]));
    return {
      agentId,
      from,
      to,
      base,
      head,
      files,
      ...lineTotals(files),
    };
  }

  /**
   * Puts the worktree back as checkpoint `n` had it, for an agent that is not busy and with no task
   * working in its worktree; none starts there until the restore has ended. What it held before
   * becomes a checkpoint first (the returned `undo`), and the agent is told in its inbox.
   */
  restore(agentId: string, n: number): Promise<{ agentId: string; restoredTo: number; undo: Turn; message: InboxMessage }> {
    const { store, agent, worktree } = this.requireWorktree(agentId);
    const target = this.requireTurn(store, agent, n);
    return this.rewriting(store, agent, worktree, 'restore', `${agent.name}'s worktree is being restored to checkpoint ${n}`, () =>
      this.restoreHeld(store, agent, worktree, target),
    );
  }

  /**
   * Runs what rewrites the worktree's files after the agent's queued git work, refused while the
   * agent is busy or a task works there (asked again once its turn comes), and with no task
   * starting there until it has ended.
   */
  private rewriting<T>(store: ProjectStore, agent: Agent, worktree: Worktree, action: 'restore' | 'revert', holdReason: string, work: () => Promise<T>): Promise<T> {
    this.refuseBusy(store, agent, worktree, action);
    return this.serially(agent.id, async () => {
      this.refuseBusy(store, agent, worktree, action);
      const release = this.holds.hold(worktree.path, holdReason);
      try {
        return await work();
      } finally {
        release();
      }
    });
  }

  /** The restore itself, while no task can start in the worktree. */
  private async restoreHeld(store: ProjectStore, agent: Agent, worktree: Worktree, target: Turn): Promise<{ agentId: string; restoredTo: number; undo: Turn; message: InboxMessage }> {
    const { id: agentId } = agent;
    const { n } = target;
    const checkout = await this.checkouts.of(worktree);
    await this.checkpoints.checkRestore(checkout, worktree.branch, target.commit);
    const latest = store.turns.latest(agentId) as Turn;
    const commitMessage = `Drover checkpoint: ${agent.name} before restoring checkpoint ${n}`;
    const taken = await this.checkpoints.take(checkout, commitMessage, checkpointRef(agentId, latest.n + 1), target.commit);
    const { snapshot, stats } = taken;
    // Written before anything changes: however the restore ends, the state before it can be had back.
    const undo = this.record(store, {
      agentId,
      n: latest.n + 1,
      kind: 'restore',
      prompt: null,
      startedAt: null,
      takenAt: Date.now(),
      commit: snapshot.commit,
      before: snapshot.commit,
      after: target.commit,
      restoredTo: n,
      ...stats,
    });
    try {
      await this.checkpoints.restore(checkout, worktree.branch, target.commit);
    } catch (error) {
      fail('invalid-state', `Could not restore checkpoint ${n}: ${error instanceof Error ? error.message : String(error)} What the worktree held before is checkpoint ${undo.n}.`);
    }
    const message = this.inbox.post(store.projectId, { agentId, kind: 'note', body: restoredNote(target, undo) });
    await this.prune(store, agent);
    return { agentId, restoredTo: n, undo, message };
  }

  /**
   * Reverts one hunk or one whole file of the agent's change in its worktree's files, under the same
   * conditions as a restore (not busy, no task working there, none starting meanwhile). What the
   * worktree held before becomes a checkpoint first (the returned `undo`: restoring it puts the
   * change back), and the agent is told in its inbox.
   */
  revert(agentId: string, request: RevertRequest): Promise<{ agentId: string; path: string; undo: Turn; message: InboxMessage }> {
    const { store, agent, worktree } = this.requireWorktree(agentId);
    return this.rewriting(store, agent, worktree, 'revert', `a change in ${agent.name}'s worktree is being reverted`, () => this.revertHeld(store, agent, worktree, request));
  }

  /** The revert itself, while no task can start in the worktree: checked, checkpointed, applied, recorded. */
  private async revertHeld(store: ProjectStore, agent: Agent, worktree: Worktree, request: RevertRequest): Promise<{ agentId: string; path: string; undo: Turn; message: InboxMessage }> {
    const { id: agentId } = agent;
    const checkout = await this.checkouts.of(worktree);
    // Only objects until the ref is set: a refused revert leaves nothing behind.
    const snapshot = await this.checkpoints.snapshot(checkout, `Drover checkpoint: ${agent.name} before reverting ${request.path}`);
    const planned = await planRevert(this.git, checkout, snapshot.tree, request);
    await checkRevert(this.git, checkout, planned);
    const latest = store.turns.latest(agentId);
    const n = latest ? latest.n + 1 : 0;
    await this.checkpoints.setRef(checkout, checkpointRef(agentId, n), snapshot.commit);
    // git apply writes all of it or nothing: a failure leaves the worktree as the checkpoint holds it.
    await applyRevert(this.git, checkout, planned);
    const after = await this.checkpoints.tree(checkout);
    // As its diff reads: what undoing the revert brings back.
    const stats = await this.checkpoints.stats(checkout, after, snapshot.commit);
    const undo = this.record(store, {
      agentId,
      n,
      kind: 'revert',
      prompt: planned.what,
      startedAt: null,
      takenAt: Date.now(),
      commit: snapshot.commit,
      before: snapshot.commit,
      after,
      restoredTo: null,
      ...stats,
    });
    const message = this.inbox.post(store.projectId, { agentId, kind: 'note', body: revertedNote(planned.what, undo) });
    await this.prune(store, agent);
    return { agentId, path: request.path, undo, message };
  }

  /** What the project's checkpoints hold on disk that no branch or tag holds. */
  async usage(projectId: string): Promise<CheckpointUsage> {
    const project = this.projects.get(projectId);
    const store = this.stores.get(projectId);
    const agents = store.worktrees.list().map((worktree) => worktree.agentId);
    const checkpoints = agents.reduce((sum, agentId) => sum + store.turns.list(agentId).length, 0);
    const bytes = checkpoints === 0 ? 0 : await this.checkpoints.diskUsage(project.path, agents.map(checkpointRefsOf));
    return { projectId, bytes, checkpoints };
  }

  async stopProject(projectId: string): Promise<void> {
    const agents = this.stores.isOpen(projectId) ? this.stores.get(projectId).agents.list().map((agent) => agent.id) : [];
    await Promise.all(agents.map((agentId) => this.queues.get(agentId)));
  }

  projectClosed(): void {}

  /** The project's checkpoint settings changed: each agent's checkpoints are pruned to them. */
  settingsChanged(projectId: string): void {
    const store = this.stores.get(projectId);
    for (const worktree of store.worktrees.list()) {
      const agent = store.agents.get(worktree.agentId);
      if (agent && worktree.state === 'ready') this.inBackground(agent.id, 'prune checkpoints', () => this.prune(store, agent));
    }
  }

  private onEvent(event: DroverEvent): void {
    if (event.name === 'agentSessionChanged') this.sessionChanged(event.projectId, event.session);
    else if (event.name === 'agentWorktreeChanged' && event.worktree === null) this.worktreeRemoved(event.projectId, event.agentId);
  }

  /** A session's first sight takes the start checkpoint (once per agent); leaving busy ends a turn. */
  private sessionChanged(projectId: string, session: AgentSession): void {
    const { agentId } = session;
    const previous = this.seen.get(agentId);
    const isNew = previous?.sessionId !== session.id;
    const turnStartedAt = session.state === 'busy' ? (previous?.state === 'busy' && !isNew ? previous.turnStartedAt : Date.now()) : null;
    this.seen.set(agentId, { sessionId: session.id, state: session.state, turnStartedAt });
    if (session.state === 'exited') this.seen.delete(agentId);
    // A session first seen ended is the boot reconciliation's: nothing starts.
    if (isNew && session.state !== 'exited') this.inBackground(agentId, 'take the start checkpoint', () => this.takeStart(projectId, agentId));
    const turnEnded = previous?.state === 'busy' && !isNew && session.state !== 'busy' && session.endReason !== 'removed';
    if (turnEnded) {
      const prompt = this.prompts.get(agentId) ?? null;
      this.prompts.delete(agentId);
      this.inBackground(agentId, 'take a checkpoint', () => this.takeTurn(projectId, agentId, previous.turnStartedAt, prompt));
    }
  }

  private async takeStart(projectId: string, agentId: string): Promise<void> {
    const found = this.usableWorktree(projectId, agentId);
    if (!found || found.store.turns.latest(agentId)) return;
    const { store, agent, worktree } = found;
    const checkout = await this.checkouts.of(worktree);
    const snapshot = await this.checkpoints.snapshot(checkout, `Drover checkpoint: ${agent.name} at its start`);
    await this.checkpoints.setRef(checkout, checkpointRef(agentId, 0), snapshot.commit);
    if (!this.stores.isOpen(projectId)) return;
    const none = { files: 0, additions: 0, deletions: 0 };
    this.record(store, { agentId, n: 0, kind: 'start', prompt: null, startedAt: null, takenAt: Date.now(), commit: snapshot.commit, before: null, after: snapshot.commit, restoredTo: null, ...none });
  }

  private async takeTurn(projectId: string, agentId: string, startedAt: number | null, prompt: string | null): Promise<void> {
    const found = this.usableWorktree(projectId, agentId);
    if (!found) return;
    const { store, agent, worktree } = found;
    const latest = store.turns.latest(agentId);
    const n = latest ? latest.n + 1 : 1;
    const before = latest?.after ?? worktree.baseCommit;
    const checkout = await this.checkouts.of(worktree);
    const { snapshot, stats } = await this.checkpoints.take(checkout, `Drover checkpoint: ${agent.name} turn ${n}`, checkpointRef(agentId, n), before);
    if (!this.stores.isOpen(projectId)) return;
    this.record(store, { agentId, n, kind: 'turn', prompt, startedAt, takenAt: Date.now(), commit: snapshot.commit, before, after: snapshot.commit, restoredTo: null, ...stats });
    await this.prune(store, agent);
  }

  /**
   * Drops checkpoints beyond the project's settings (the newest always stays). A ref stays while a
   * kept checkpoint starts or ends at its commit, or while it is the only holder of commits no
   * branch has (such a checkpoint is kept whole); refs are checked one at a time, so of two
   * holders of the same commits the last one stays. Refs are the repository's, so this runs in the
   * project's folder.
   */
  private async prune(store: ProjectStore, agent: Agent): Promise<void> {
    const folder = this.projects.get(store.projectId).path;
    const { checkpointTurnsKept: keep, checkpointDaysKept: days } = store.settings.get();
    const turns = store.turns.list(agent.id);
    const oldestKept = days === null ? 0 : Date.now() - days * DAY_MS;
    const inLimits = (turn: Turn, index: number) => index === turns.length - 1 || (index >= turns.length - keep && turn.takenAt >= oldestKept);
    const kept = new Set(turns.filter(inLimits).map((turn) => turn.n));
    const needed = new Set(turns.filter((turn) => kept.has(turn.n)).flatMap((turn) => [turn.before, turn.commit, turn.after]));
    const refs = new Map((await this.checkpoints.refs(folder, checkpointRefsOf(agent.id))).map(({ ref, commit }) => [ref, commit]));
    const deletable = async (ref: string, commit: string) => !needed.has(commit) && !(await this.checkpoints.holdsOrphanCommits(folder, ref, ALL_CHECKPOINTS));
    // Oldest first, then the refs a pruned checkpoint left because a kept one started at their commit.
    for (const turn of turns.filter((candidate) => !kept.has(candidate.n))) {
      const commit = refs.get(turn.ref);
      if (commit !== undefined && (await this.checkpoints.holdsOrphanCommits(folder, turn.ref, ALL_CHECKPOINTS))) continue;
      if (commit !== undefined && !needed.has(commit)) await this.checkpoints.deleteRef(folder, turn.ref);
      if (this.stores.isOpen(store.projectId)) this.forget(store, agent.id, turn.n);
    }
    const rowRefs = new Set(turns.map((turn) => turn.ref));
    for (const [ref, commit] of refs) if (!rowRefs.has(ref) && (await deletable(ref, commit))) await this.checkpoints.deleteRef(folder, ref);
  }

  /** The agent's worktree went (the agent is removed or archived): its checkpoints go, but never the only holder of a commit. */
  private worktreeRemoved(projectId: string, agentId: string): void {
    this.seen.delete(agentId);
    this.prompts.delete(agentId);
    this.inBackground(agentId, 'remove checkpoints', async () => {
      const folder = this.projects.get(projectId).path;
      for (const { ref } of await this.checkpoints.refs(folder, checkpointRefsOf(agentId))) {
        if (!(await this.checkpoints.holdsOrphanCommits(folder, ref, ALL_CHECKPOINTS))) await this.checkpoints.deleteRef(folder, ref);
      }
    });
  }

  private record(store: ProjectStore, turn: NewTurn): Turn {
    const recorded = store.turns.insert(turn);
    this.events.emit({ name: 'agentTurnChanged', seq: recorded.seq, projectId: recorded.projectId, agentId: recorded.agentId, n: recorded.n, turn: recorded });
    return recorded;
  }

  private forget(store: ProjectStore, agentId: string, n: number): void {
    const seq = store.turns.remove(agentId, n);
    this.events.emit({ name: 'agentTurnChanged', seq, projectId: store.projectId, agentId, n, turn: null });
  }

  /** Runs the agent's git work after what is already queued for it. */
  private serially<T>(agentId: string, work: () => Promise<T>): Promise<T> {
    const run = (this.queues.get(agentId) ?? Promise.resolve()).then(work);
    const settled = run.then(
      () => {},
      () => {},
    );
    this.queues.set(agentId, settled);
    void settled.then(() => {
      if (this.queues.get(agentId) === settled) this.queues.delete(agentId);
    });
    return run;
  }

  private inBackground(agentId: string, what: string, work: () => Promise<void>): void {
    this.serially(agentId, work).catch((error: unknown) => this.options.log(`could not ${what} of agent ${agentId}: ${error instanceof Error ? error.message : String(error)}`));
  }

  /** The agent's worktree when checkpoints can be taken in it (ready, its folder there), else undefined. */
  private usableWorktree(projectId: string, agentId: string): { store: ProjectStore; agent: Agent; worktree: Worktree } | undefined {
    if (!this.stores.isOpen(projectId)) return undefined;
    const store = this.stores.get(projectId);
    const agent = store.agents.get(agentId);
    const worktree = store.worktrees.get(agentId);
    if (!agent || !worktree) return undefined;
    try {
      requireUsable(agent, worktree);
    } catch {
      return undefined;
    }
    return { store, agent, worktree };
  }

  private requireWorktree(agentId: string): { store: ProjectStore; agent: Agent; worktree: Worktree } {
    const { store, agent } = this.locator.agent(agentId);
    const worktree = store.worktrees.get(agentId);
    if (!worktree) fail('invalid-state', `${agent.name} works in the project folder, not in a worktree of its own, so it has no checkpoints.`);
    requireUsable(agent, worktree);
    return { store, agent, worktree };
  }

  private requireTurn(store: ProjectStore, agent: Agent, n: number): Turn {
    const turn = store.turns.get(agent.id, n);
    if (turn) return turn;
    const turns = store.turns.list(agent.id);
    const range = turns.length === 0 ? 'none yet' : `${turns[0]?.n ?? 0}–${turns.at(-1)?.n ?? 0}`;
    fail('not-found', `${agent.name} has no checkpoint ${n} (checkpoints: ${range}${turns.length > 0 && (turns[0]?.n ?? 0) > 0 ? '; older ones were pruned' : ''}).`);
  }

  /** A restore or a revert rewrites files under whatever works in the worktree: the agent in a turn, or a task. */
  private refuseBusy(store: ProjectStore, agent: Agent, worktree: Worktree, verb: 'restore' | 'revert'): void {
    const refusal = restoreRefusal(agent.name, store.sessions.latest(agent.id), store.tasks.active(), worktree.path, verb);
    if (refusal) fail('invalid-state', refusal);
  }

}
