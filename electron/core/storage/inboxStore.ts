import type { InboxMessage } from '../../../shared/entities/inbox';
import { MAX_MESSAGE_CHARS, messageBodyWithin } from '../../../shared/messageBody';
import type { SeqCounter } from './seqCounter';
import type { SqliteDatabase } from './sqlite';

interface MessageRow {
  id: string;
  agent_id: string;
  kind: InboxMessage['kind'];
  /** The body's first MAX_MESSAGE_CHARS characters (see MESSAGE). */
  body: string;
  /** Its length as SQLite counts characters: code points, where JavaScript counts UTF-16 units. */
  body_length: number;
  task_id: string | null;
  from_agent_id: string | null;
  reply_to: string | null;
  state: InboxMessage['state'];
  created_at: number;
  delivered_at: number | null;
  read_at: number | null;
  seen_at: number | null;
  seq: number;
}

/**
 * A message row as read: a body stored before messages had a bound (a whole CI log) is read only
 * as far as a message holds, so one row can never make the project's work state too large to send.
 */
const MESSAGE = `SELECT id, agent_id, kind, substr(body, 1, ${MAX_MESSAGE_CHARS}) AS body, length(body) AS body_length, task_id, from_agent_id, reply_to, state,
  created_at, delivered_at, read_at, seen_at, seq FROM inbox_messages`;

export type NewMessage = Pick<InboxMessage, 'id' | 'agentId' | 'kind' | 'body' | 'taskId' | 'fromAgentId' | 'replyTo' | 'createdAt' | 'seenAt'>;

/** The inbox messages of one project's agents. */
export class InboxStore {
  private readonly statements;

  constructor(
    db: SqliteDatabase,
    readonly projectId: string,
    private readonly seq: SeqCounter,
  ) {
    this.statements = {
      message: db.prepare<[string], MessageRow>(`${MESSAGE} WHERE id = ?`),
      messages: db.prepare<[string], MessageRow>(`${MESSAGE} WHERE agent_id = ? ORDER BY created_at, rowid`),
      oldestFirst: db.prepare<[{ after: number; agentId: string | null; unreadOnly: number }], MessageRow>(
        `${MESSAGE} WHERE rowid > @after AND (@agentId IS NULL OR agent_id = @agentId) AND (@unreadOnly = 0 OR state != 'read')
         ORDER BY rowid`,
      ),
      rowidOf: db.prepare<[string], number>('SELECT rowid FROM inbox_messages WHERE id = ?').pluck(),
      hasPending: db.prepare<[string], number>("SELECT EXISTS (SELECT 1 FROM inbox_messages WHERE agent_id = ? AND state = 'pending')").pluck(),
      pendingIds: db.prepare<[string], string>("SELECT id FROM inbox_messages WHERE agent_id = ? AND state = 'pending' ORDER BY created_at, rowid").pluck(),
      firstPending: db.prepare<[string, number], MessageRow>(
        `${MESSAGE} WHERE agent_id = ? AND state = 'pending' ORDER BY created_at, rowid LIMIT ?`,
      ),
      agentsWithPending: db.prepare<[], { agent_id: string }>("SELECT DISTINCT agent_id FROM inbox_messages WHERE state = 'pending'"),
      resultOfTask: db.prepare<[string], MessageRow>(`${MESSAGE} WHERE task_id = ? AND kind = 'task-result'`),
      finishedTasksWithoutResult: db.prepare<[], { id: string }>(
        `SELECT t.id FROM tasks t
         WHERE t.owner_agent_id IS NOT NULL AND t.state IN ('succeeded','failed','cancelled','interrupted')
           AND NOT EXISTS (SELECT 1 FROM inbox_messages m WHERE m.task_id = t.id AND m.kind = 'task-result')
         ORDER BY t.rowid`,
      ),
      replyTo: db.prepare<[string], MessageRow>(`${MESSAGE} WHERE reply_to = ? AND kind = 'reply' ORDER BY rowid LIMIT 1`),
      insertMessage: db.prepare(
        `INSERT INTO inbox_messages (id, agent_id, kind, body, task_id, from_agent_id, reply_to, state, created_at, seen_at, seq)
         VALUES (@id, @agentId, @kind, @body, @taskId, @fromAgentId, @replyTo, 'pending', @createdAt, @seenAt, @seq)`,
      ),
      setMessageState: db.prepare(
        `UPDATE inbox_messages SET state = @state,
           delivered_at = CASE WHEN @state IN ('delivered','read') THEN coalesce(delivered_at, @at) ELSE delivered_at END,
           read_at = CASE WHEN @state = 'read' THEN @at ELSE read_at END,
           seq = @seq
         WHERE id = @id`,
      ),
      markSeen: db.prepare<[{ id: string; at: number; seq: number }]>('UPDATE inbox_messages SET seen_at = @at, seq = @seq WHERE id = @id AND seen_at IS NULL'),
    };
  }

  message(id: string): InboxMessage | undefined {
    const row = this.statements.message.get(id);
    return row && this.toMessage(row);
  }

  messages(agentId: string): InboxMessage[] {
    return this.statements.messages.all(agentId).map((row) => this.toMessage(row));
  }

  /**
   * Messages oldest first (of one agent, or of the whole project), read lazily, from just after
   * the message `after` when given. Returns undefined when `after` names no message of this project.
   */
  oldestFirst(options: { after?: string | undefined; agentId?: string | undefined; unreadOnly?: boolean } = {}): Iterable<InboxMessage> | undefined {
    const after = options.after === undefined ? 0 : this.statements.rowidOf.get(options.after);
    if (after === undefined) return undefined;
    const { oldestFirst } = this.statements;
    const params = { after, agentId: options.agentId ?? null, unreadOnly: options.unreadOnly ? 1 : 0 };
    const toMessage = (row: MessageRow) => this.toMessage(row);
    // The query starts on the first read, and stopping early (a full page) ends it.
    return (function* () {
      for (const row of oldestFirst.iterate(params)) yield toMessage(row);
    })();
  }

  /** Whether the agent has a message no wake delivered yet: one row looked at, however many wait. */
  hasPending(agentId: string): boolean {
    return this.statements.hasPending.get(agentId) === 1;
  }

  /** The ids of the agent's pending messages, oldest first (ids only: the queue may be long). */
  pendingIds(agentId: string): string[] {
    return this.statements.pendingIds.all(agentId);
  }

  /** The agent's oldest `limit` pending messages. */
  firstPending(agentId: string, limit: number): InboxMessage[] {
    return this.statements.firstPending.all(agentId, limit).map((row) => this.toMessage(row));
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

  /** Records that a person saw the message; false when one already had. */
  markSeen(id: string, at: number): boolean {
    const seq = this.seq.next();
    return this.statements.markSeen.run({ id, at, seq }).changes === 1;
  }

  /**
   * The body cut where a message sent now is (MAX_MESSAGE_CHARS UTF-16 units). SQLite counts code
   * points: a body within that many was read whole and is measured here (an emoji is two units); one
   * past it has more units still, so it is cut, and the note names SQLite's count.
   */
  private bodyOf(row: MessageRow): string {
    return messageBodyWithin(row.body, row.body_length > MAX_MESSAGE_CHARS ? row.body_length : row.body.length);
  }

  private toMessage(row: MessageRow): InboxMessage {
    return {
      id: row.id,
      projectId: this.projectId,
      agentId: row.agent_id,
      kind: row.kind,
      body: this.bodyOf(row),
      taskId: row.task_id,
      fromAgentId: row.from_agent_id,
      replyTo: row.reply_to,
      state: row.state,
      createdAt: row.created_at,
      deliveredAt: row.delivered_at,
      readAt: row.read_at,
      seenAt: row.seen_at,
      seq: row.seq,
    };
  }
}
