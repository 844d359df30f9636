import type { MergeQueueEntry, MergeQueueState } from '../../../shared/entities/mergeQueue';
import type { SeqCounter } from './seqCounter';
import type { SqliteDatabase } from './sqlite';

interface MergeQueueRow {
  agent_id: string;
  branch: string;
  parent_branch: string;
  state: MergeQueueState;
  reason: string | null;
  position: number;
  check_task_id: string | null;
  merged_commit: string | null;
  queued_at: number;
  updated_at: number;
  seq: number;
  agent_name: string;
}

export type QueueEntryChange = Partial<Pick<MergeQueueEntry, 'state' | 'reason' | 'position' | 'checkTaskId' | 'mergedCommit'>>;

/** Entries with their agent's name (an entry goes with its agent). */
const NAMED = 'SELECT q.*, agents.name AS agent_name FROM merge_queue q JOIN agents ON agents.id = q.agent_id';

/** The merge queues of one project's parent branches. */
export class MergeQueueStore {
  private readonly statements;

  constructor(
    db: SqliteDatabase,
    readonly projectId: string,
    private readonly seq: SeqCounter,
  ) {
    this.statements = {
      all: db.prepare<[], MergeQueueRow>(`${NAMED} ORDER BY q.parent_branch, q.position`),
      byAgent: db.prepare<[string], MergeQueueRow>(`${NAMED} WHERE q.agent_id = ?`),
      lastPosition: db.prepare<[string], { position: number | null }>('SELECT max(position) AS position FROM merge_queue WHERE parent_branch = ?'),
      upsert: db.prepare(
        `INSERT INTO merge_queue (agent_id, branch, parent_branch, state, reason, position, check_task_id, merged_commit, queued_at, updated_at, seq)
         VALUES (@agentId, @branch, @parentBranch, 'queued', NULL, @position, NULL, NULL, @queuedAt, @queuedAt, @seq)
         ON CONFLICT (agent_id) DO UPDATE SET branch = excluded.branch, parent_branch = excluded.parent_branch, state = 'queued', reason = NULL,
           position = excluded.position, check_task_id = NULL, merged_commit = NULL, queued_at = excluded.queued_at, updated_at = excluded.updated_at, seq = excluded.seq`,
      ),
      update: db.prepare(
        `UPDATE merge_queue SET state = @state, reason = @reason, position = @position, check_task_id = @checkTaskId, merged_commit = @mergedCommit,
           updated_at = @updatedAt, seq = @seq WHERE agent_id = @agentId`,
      ),
      remove: db.prepare('DELETE FROM merge_queue WHERE agent_id = ?'),
    };
  }

  list(): MergeQueueEntry[] {
    return this.statements.all.all().map((row) => this.toEntry(row));
  }

  get(agentId: string): MergeQueueEntry | undefined {
    const row = this.statements.byAgent.get(agentId);
    return row && this.toEntry(row);
  }

  /** Puts the agent's branch last in its parent's queue (an entry it had before, merged or handed back, is replaced). */
  enqueue(entry: { agentId: string; branch: string; parentBranch: string; queuedAt: number }): MergeQueueEntry {
    const position = (this.statements.lastPosition.get(entry.parentBranch)?.position ?? 0) + 1;
    this.statements.upsert.run({ ...entry, position, seq: this.seq.next() });
    return this.get(entry.agentId) as MergeQueueEntry;
  }

  update(agentId: string, change: QueueEntryChange): MergeQueueEntry {
    const current = this.get(agentId);
    if (!current) throw new Error(`No merge queue entry for agent ${agentId}`);
    this.statements.update.run({ ...current, ...change, agentId, updatedAt: Date.now(), seq: this.seq.next() });
    return this.get(agentId) as MergeQueueEntry;
  }

  /** Forgets the entry; returns the seq of the removal. */
  remove(agentId: string): number {
    this.statements.remove.run(agentId);
    return this.seq.next();
  }

  private toEntry(row: MergeQueueRow): MergeQueueEntry {
    return {
      agentId: row.agent_id,
      projectId: this.projectId,
      agentName: row.agent_name,
      branch: row.branch,
      parentBranch: row.parent_branch,
      state: row.state,
      reason: row.reason,
      position: row.position,
      checkTaskId: row.check_task_id,
      mergedCommit: row.merged_commit,
      queuedAt: row.queued_at,
      updatedAt: row.updated_at,
      seq: row.seq,
    };
  }
}
