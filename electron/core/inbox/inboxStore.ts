import type { InboxMessage, Wake } from '../../../shared/entities';
import type { SeqCounter } from '../storage/seqCounter';
import type { SqliteDatabase } from '../storage/sqlite';

interface MessageRow {
  id: string;
  agent_id: string;
  kind: InboxMessage['kind'];
  body: string;
  task_id: string | null;
  from_agent_id: string | null;
  reply_to: string | null;
  state: InboxMessage['state'];
  created_at: number;
  delivered_at: number | null;
  read_at: number | null;
  seq: number;
}

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

export type NewMessage = Pick<InboxMessage, 'id' | 'agentId' | 'kind' | 'body' | 'taskId' | 'fromAgentId' | 'replyTo' | 'createdAt'>;
export type WakeChange = Partial<Pick<Wake, 'state' | 'messageIds' | 'attempts' | 'notBefore' | 'lastError'>>;

/** Inbox messages and wakes of one project's agents. */
export class InboxStore {
  private readonly statements;

  constructor(
    db: SqliteDatabase,
    readonly projectId: string,
    private readonly seq: SeqCounter,
  ) {
    this.statements = {
      message: db.prepare<[string], MessageRow>('SELECT * FROM inbox_messages WHERE id = ?'),
      messages: db.prepare<[string], MessageRow>('SELECT * FROM inbox_messages WHERE agent_id = ? ORDER BY created_at, rowid'),
      allMessages: db.prepare<[], MessageRow>('SELECT * FROM inbox_messages ORDER BY created_at, rowid'),
      pending: db.prepare<[string], MessageRow>("SELECT * FROM inbox_messages WHERE agent_id = ? AND state = 'pending' ORDER BY created_at, rowid"),
      agentsWithPending: db.prepare<[], { agent_id: string }>("SELECT DISTINCT agent_id FROM inbox_messages WHERE state = 'pending'"),
      resultOfTask: db.prepare<[string], MessageRow>("SELECT * FROM inbox_messages WHERE task_id = ? AND kind = 'task-result'"),
      finishedTasksWithoutResult: db.prepare<[], { id: string }>(
        `SELECT t.id FROM tasks t
         WHERE t.owner_agent_id IS NOT NULL AND t.state IN ('succeeded','failed','cancelled','interrupted')
           AND NOT EXISTS (SELECT 1 FROM inbox_messages m WHERE m.task_id = t.id AND m.kind = 'task-result')
         ORDER BY t.rowid`,
      ),
      replyTo: db.prepare<[string], MessageRow>("SELECT * FROM inbox_messages WHERE reply_to = ? AND kind = 'reply' ORDER BY rowid LIMIT 1"),
      insertMessage: db.prepare(
        `INSERT INTO inbox_messages (id, agent_id, kind, body, task_id, from_agent_id, reply_to, state, created_at, seq)
         VALUES (@id, @agentId, @kind, @body, @taskId, @fromAgentId, @replyTo, 'pending', @createdAt, @seq)`,
      ),
      setMessageState: db.prepare(
        `UPDATE inbox_messages SET state = @state,
           delivered_at = CASE WHEN @state IN ('delivered','read') THEN coalesce(delivered_at, @at) ELSE delivered_at END,
           read_at = CASE WHEN @state = 'read' THEN @at ELSE read_at END,
           seq = @seq
         WHERE id = @id`,
      ),
      wake: db.prepare<[string], WakeRow>('SELECT * FROM wakes WHERE id = ?'),
      openWake: db.prepare<[string], WakeRow>("SELECT * FROM wakes WHERE agent_id = ? AND state IN ('waiting','delivering') ORDER BY rowid LIMIT 1"),
      visibleWakes: db.prepare<[], WakeRow>(
        `SELECT * FROM wakes w WHERE w.state IN ('waiting','delivering')
           OR w.rowid = (SELECT max(rowid) FROM wakes WHERE agent_id = w.agent_id)`,
      ),
      delivering: db.prepare<[], WakeRow>("SELECT * FROM wakes WHERE state = 'delivering'"),
      updateWake: db.prepare(
        `UPDATE wakes SET state = @state, message_ids = @messageIds, attempts = @attempts, not_before = @notBefore,
           last_error = @lastError, updated_at = @at, seq = @seq WHERE id = @id`,
      ),
      insertWake: db.prepare(
        `INSERT INTO wakes (id, agent_id, message_ids, state, attempts, created_at, updated_at, seq)
         VALUES (@id, @agentId, '[]', 'waiting', 0, @at, @at, @seq)`,
      ),
    };
  }

  message(id: string): InboxMessage | undefined {
    const row = this.statements.message.get(id);
    return row && this.toMessage(row);
  }

  messages(agentId?: string): InboxMessage[] {
    const rows = agentId ? this.statements.messages.all(agentId) : this.statements.allMessages.all();
    return rows.map((row) => this.toMessage(row));
  }

  pending(agentId: string): InboxMessage[] {
    return this.statements.pending.all(agentId).map((row) => this.toMessage(row));
  }

  agentsWithPending(): string[] {
    return this.statements.agentsWithPending.all().map((row) => row.agent_id);
  }

  resultOfTask(taskId: string): InboxMessage | undefined {
    const row = this.statements.resultOfTask.get(taskId);
    return row && this.toMessage(row);
  }

  /** Owned tasks that ended without a result message (their owner may no longer exist). */
  finishedTasksWithoutResult(): string[] {
    return this.statements.finishedTasksWithoutResult.all().map((row) => row.id);
  }

  replyTo(questionId: string): InboxMessage | undefined {
    const row = this.statements.replyTo.get(questionId);
    return row && this.toMessage(row);
  }

  insertMessage(message: NewMessage): InboxMessage {
    this.statements.insertMessage.run({ ...message, seq: this.seq.next() });
    return this.message(message.id) as InboxMessage;
  }

  setMessageState(id: string, state: InboxMessage['state'], at: number): InboxMessage {
    this.statements.setMessageState.run({ id, state, at, seq: this.seq.next() });
    return this.message(id) as InboxMessage;
  }

  wake(id: string): Wake | undefined {
    const row = this.statements.wake.get(id);
    return row && this.toWake(row);
  }

  openWake(agentId: string): Wake | undefined {
    const row = this.statements.openWake.get(agentId);
    return row && this.toWake(row);
  }

  visibleWakes(): Wake[] {
    return this.statements.visibleWakes.all().map((row) => this.toWake(row));
  }

  deliveringWakes(): Wake[] {
    return this.statements.delivering.all().map((row) => this.toWake(row));
  }

  insertWake(id: string, agentId: string, at: number): Wake {
    this.statements.insertWake.run({ id, agentId, at, seq: this.seq.next() });
    return this.wake(id) as Wake;
  }

  updateWake(id: string, change: WakeChange, at: number): Wake {
    const current = this.wake(id);
    if (!current) throw new Error(`No wake ${id}`);
    const next = { ...current, ...change };
    this.statements.updateWake.run({
      id,
      state: next.state,
      messageIds: JSON.stringify(next.messageIds),
      attempts: next.attempts,
      notBefore: next.notBefore,
      lastError: next.lastError,
      at,
      seq: this.seq.next(),
    });
    return this.wake(id) as Wake;
  }

  private toMessage(row: MessageRow): InboxMessage {
    return {
      id: row.id,
      projectId: this.projectId,
      agentId: row.agent_id,
      kind: row.kind,
      body: row.body,
      taskId: row.task_id,
      fromAgentId: row.from_agent_id,
      replyTo: row.reply_to,
      state: row.state,
      createdAt: row.created_at,
      deliveredAt: row.delivered_at,
      readAt: row.read_at,
      seq: row.seq,
    };
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
