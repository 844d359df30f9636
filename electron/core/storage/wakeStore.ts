import type { Wake } from '../../../shared/entities/wake';
import type { SeqCounter } from './seqCounter';
import type { SqliteDatabase } from './sqlite';

interface WakeRow {
  id: string;
  agent_id: string;
  message_ids: string;
  state: Wake['state'];
  attempts: number;
  not_before: number | null;
  last_error: string | null;
  created_at: number;
  updated_at: number;
  seq: number;
}

export type WakeChange = Partial<Pick<Wake, 'state' | 'messageIds' | 'attempts' | 'notBefore' | 'lastError'>>;

/** Wakes of one project's agents: each delivers an agent's pending messages by typing them in. */
export class WakeStore {
  private readonly statements;

  constructor(
    db: SqliteDatabase,
    readonly projectId: string,
    private readonly seq: SeqCounter,
  ) {
    this.statements = {
      byId: db.prepare<[string], WakeRow>('SELECT * FROM wakes WHERE id = ?'),
      open: db.prepare<[string], WakeRow>("SELECT * FROM wakes WHERE agent_id = ? AND state IN ('waiting','delivering') ORDER BY rowid LIMIT 1"),
      visible: db.prepare<[], WakeRow>(
        `SELECT * FROM wakes w WHERE w.state IN ('waiting','delivering')
           OR w.rowid = (SELECT max(rowid) FROM wakes WHERE agent_id = w.agent_id)`,
      ),
      delivering: db.prepare<[], WakeRow>("SELECT * FROM wakes WHERE state = 'delivering'"),
      update: db.prepare(
        `UPDATE wakes SET state = @state, message_ids = @messageIds, attempts = @attempts, not_before = @notBefore,
           last_error = @lastError, updated_at = @at, seq = @seq WHERE id = @id`,
      ),
      insert: db.prepare(
        `INSERT INTO wakes (id, agent_id, message_ids, state, attempts, created_at, updated_at, seq)
         VALUES (@id, @agentId, '[]', 'waiting', 0, @at, @at, @seq)`,
      ),
    };
  }

  get(id: string): Wake | undefined {
    const row = this.statements.byId.get(id);
    return row && this.toWake(row);
  }

  open(agentId: string): Wake | undefined {
    const row = this.statements.open.get(agentId);
    return row && this.toWake(row);
  }

  visible(): Wake[] {
    return this.statements.visible.all().map((row) => this.toWake(row));
  }

  delivering(): Wake[] {
    return this.statements.delivering.all().map((row) => this.toWake(row));
  }

  insert(id: string, agentId: string, at: number): Wake {
    this.statements.insert.run({ id, agentId, at, seq: this.seq.next() });
    return this.get(id) as Wake;
  }

  update(id: string, change: WakeChange, at: number): Wake {
    const current = this.get(id);
    if (!current) throw new Error(`No wake ${id}`);
    const next = { ...current, ...change };
    this.statements.update.run({
      id,
      state: next.state,
      messageIds: JSON.stringify(next.messageIds),
      attempts: next.attempts,
      notBefore: next.notBefore,
      lastError: next.lastError,
      at,
      seq: this.seq.next(),
    });
    return this.get(id) as Wake;
  }

  private toWake(row: WakeRow): Wake {
    return {
      id: row.id,
      projectId: this.projectId,
      agentId: row.agent_id,
      messageIds: JSON.parse(row.message_ids) as string[],
      state: row.state,
      attempts: row.attempts,
      notBefore: row.not_before,
      lastError: row.last_error,
      createdAt: row.created_at,
      updatedAt: row.updated_at,
      seq: row.seq,
    };
  }
}
