import type { ProjectOverlaps } from '../../../shared/overlaps';
import type { EventBus } from '../events/eventBus';
import type { ProjectStores } from '../storage/projectStores';
import type { OverlapRadar } from './overlapRadar';

/** What the follower needs of the worktrees: their watch (the Changes view's), which moves a worktree's `changedAt` as its files change. */
export interface WatchedWorktrees {
  watch(agentId: string): Promise<() => void>;
}

/** What hears each computation of a project's overlaps, announced or not (the conflict notices). */
export interface OverlapListener {
  seen(overlaps: ProjectOverlaps): void;
  forget(projectId: string): void;
}

export interface OverlapFollowerOptions {
  /** Quiet time after a worktree change before the project's overlaps are computed again. */
  debounceMs: number;
  log(line: string): void;
}

const EMPTY = JSON.stringify({ pairs: [], parentConflicts: [] });
function stopWatch(watch: Promise<() => void>): void {
  void watch.then(
    (stop) => stop(),
    () => {},
  );
}

const shown = ({ pairs, parentConflicts }: ProjectOverlaps) => JSON.stringify({ pairs, parentConflicts });

/**
 * Keeps each project's overlaps current for the pages: while a project has two or more ready
 * worktrees they are all watched, and each burst of changes (`agentWorktreeChanged`, which the
 * watch, a merge or a new worktree announce) computes the project's overlaps once, after a quiet
 * moment; `projectOverlapsChanged` is announced when they differ from the last announced.
 */
export class OverlapFollower {
  /** Each project's watched worktrees, by agent. */
  private readonly watches = new Map<string, Map<string, Promise<() => void>>>();
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private readonly announced = new Map<string, string>();
  private closed = false;

  constructor(
    private readonly radar: OverlapRadar,
    private readonly stores: ProjectStores,
    private readonly events: EventBus,
    private readonly worktrees: WatchedWorktrees,
    private readonly listener: OverlapListener,
    private readonly options: OverlapFollowerOptions,
  ) {}

  listen(): () => void {
    return this.events.onEvent((event) => {
      if (event.name === 'agentWorktreeChanged') this.changed(event.projectId);
      else if (event.name === 'projectChanged' && event.project === null) this.forget(event.projectId);
    });
  }

  /** Starts following every project (once the host serves). */
  startAll(projectIds: readonly string[]): void {
    for (const projectId of projectIds) this.changed(projectId);
  }

  close(): void {
    this.closed = true;
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
    for (const projectId of [...this.watches.keys()]) this.unwatchAll(projectId);
  }

  private changed(projectId: string): void {
    if (this.closed || !this.stores.isOpen(projectId)) return;
    this.followWorktrees(projectId);
    clearTimeout(this.timers.get(projectId));
    this.timers.set(
      projectId,
      setTimeout(() => {
        this.timers.delete(projectId);
        void this.announce(projectId);
      }, this.options.debounceMs),
    );
  }

  /** Watches the project's ready worktrees while there are two or more (one alone overlaps nothing); stops watching the others. */
  private followWorktrees(projectId: string): void {
    const ready = this.stores
      .get(projectId)
      .worktrees.list()
      .filter((worktree) => worktree.state === 'ready')
      .map((worktree) => worktree.agentId);
    const followed = new Set(ready.length >= 2 ? ready : []);
    const watched = this.watches.get(projectId) ?? new Map<string, Promise<() => void>>();
    this.watches.set(projectId, watched);
    for (const [agentId, watch] of watched) {
      if (followed.has(agentId)) continue;
      watched.delete(agentId);
      stopWatch(watch);
    }
    for (const agentId of followed) {
      if (watched.has(agentId)) continue;
      const watch = this.worktrees.watch(agentId);
      watched.set(agentId, watch);
      watch.catch((error: unknown) => {
        if (watched.get(agentId) === watch) watched.delete(agentId);
        this.options.log(`overlap radar: cannot watch the worktree of ${agentId}: ${error instanceof Error ? error.message : String(error)}`);
      });
    }
  }

  private unwatchAll(projectId: string): void {
    for (const watch of this.watches.get(projectId)?.values() ?? []) stopWatch(watch);
    this.watches.delete(projectId);
  }

  private async announce(projectId: string): Promise<void> {
    try {
      const overlaps = await this.radar.overlaps(projectId);
      if (this.closed || !this.stores.isOpen(projectId)) return;
      this.listener.seen(overlaps);
      const now = shown(overlaps);
      if (now === (this.announced.get(projectId) ?? EMPTY)) return;
      this.announced.set(projectId, now);
      this.events.emit({ name: 'projectOverlapsChanged', seq: this.stores.get(projectId).seq.next(), ...overlaps });
    } catch (error) {
      this.options.log(`overlap radar: could not compute the overlaps of ${projectId}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  private forget(projectId: string): void {
    clearTimeout(this.timers.get(projectId));
    this.timers.delete(projectId);
    this.announced.delete(projectId);
    this.unwatchAll(projectId);
    this.radar.forget(projectId);
    this.listener.forget(projectId);
  }
}
