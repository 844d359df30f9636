import type { ConflictNotice, OverlapPair, ProjectOverlaps } from '../../../shared/overlaps';
import type { EventBus } from '../events/eventBus';
import type { ProjectWork } from '../projects/projectMethods';
import type { ProjectStores } from '../storage/projectStores';

/** A pair's id, whichever agent the radar names first. */
export const pairId = (agents: readonly [string, string]): string => [...agents].sort().join('+');

/**
 * The pairs of agents whose branches started to conflict, as Needs you items: a pair that
 * conflicts in one of the radar's computations and did not in the previous one gets a notice while
 * the project's conflict alerts are on (one per pair); the notice goes when the pair stops
 * conflicting or the alerts are turned off. Held in memory only: every project's overlaps are
 * computed when the host starts, and what conflicts then is new to that host, so it is noticed again.
 */
export class ConflictNotices implements ProjectWork {
  /** Each project's conflicting pairs in the radar's last computation. */
  private readonly conflicting = new Map<string, ReadonlySet<string>>();
  private readonly notices = new Map<string, Map<string, ConflictNotice>>();

  constructor(
    private readonly stores: ProjectStores,
    private readonly events: EventBus,
  ) {}

  list(projectId: string): ConflictNotice[] {
    return [...(this.notices.get(projectId)?.values() ?? [])];
  }

  /** Takes one computation of the project's overlaps. */
  seen({ projectId, pairs }: ProjectOverlaps): void {
    const before = this.conflicting.get(projectId) ?? new Set<string>();
    const now = new Map(pairs.filter((pair) => pair.conflict).map((pair) => [pairId(pair.agents), pair]));
    this.conflicting.set(projectId, new Set(now.keys()));
    for (const id of [...(this.notices.get(projectId)?.keys() ?? [])]) if (!now.has(id)) this.drop(projectId, id);
    if (!this.stores.get(projectId).settings.get().conflictAlerts) return;
    for (const [id, pair] of now) if (!before.has(id)) this.put(projectId, id, pair);
  }

  /** The alerts turned off: the notices go (a conflict that appears after they are on again is noticed). */
  settingsChanged(projectId: string): void {
    if (this.stores.get(projectId).settings.get().conflictAlerts) return;
    for (const id of [...(this.notices.get(projectId)?.keys() ?? [])]) this.drop(projectId, id);
  }

  /** Nothing of the notices runs: they go when the project does. */
  stopProject(): Promise<void> {
    return Promise.resolve();
  }

  projectClosed(projectId: string): void {
    this.forget(projectId);
  }

  forget(projectId: string): void {
    this.conflicting.delete(projectId);
    this.notices.delete(projectId);
  }

  private put(projectId: string, id: string, pair: OverlapPair): void {
    const notice: ConflictNotice = { id, projectId, agents: pair.agents, agentNames: pair.agentNames, conflictFiles: pair.conflictFiles, seq: this.stores.get(projectId).seq.next() };
    const notices = this.notices.get(projectId) ?? new Map<string, ConflictNotice>();
    this.notices.set(projectId, notices.set(id, notice));
    this.events.emit({ name: 'conflictNoticeChanged', seq: notice.seq, projectId, noticeId: id, notice });
  }

  private drop(projectId: string, id: string): void {
    this.notices.get(projectId)?.delete(id);
    this.events.emit({ name: 'conflictNoticeChanged', seq: this.stores.get(projectId).seq.next(), projectId, noticeId: id, notice: null });
  }
}
