import type { DiffComment, DiffSide } from '../../../shared/turns';
import type { SeqCounter } from './seqCounter';
import type { SqliteDatabase } from './sqlite';

interface CommentRow {
  id: string;
  agent_id: string;
  path: string;
  side: DiffSide;
  start_line: number;
  end_line: number;
  quoted: string;
  body: string;
  created_at: number;
  sent_at: number | null;
  message_id: string | null;
  seq: number;
}

export type NewComment = Pick<DiffComment, 'id' | 'agentId' | 'path' | 'side' | 'startLine' | 'endLine' | 'quoted' | 'body' | 'createdAt'>;

/** The comments people wrote on the project's agents' diffs. */
export class CommentStore {
  private readonly statements;

  constructor(
    db: SqliteDatabase,
    readonly projectId: string,
    private readonly seq: SeqCounter,
  ) {
    this.statements = {
      get: db.prepare<[string], CommentRow>('SELECT * FROM diff_comments WHERE id = ?'),
      list: db.prepare<[string], CommentRow>('SELECT * FROM diff_comments WHERE agent_id = ? ORDER BY created_at, rowid'),
      unsent: db.prepare<[string], CommentRow>('SELECT * FROM diff_comments WHERE agent_id = ? AND sent_at IS NULL ORDER BY created_at, rowid'),
      sentBeyond: db.prepare<[string, number], { id: string }>(
        'SELECT id FROM diff_comments WHERE agent_id = ? AND sent_at IS NOT NULL ORDER BY sent_at DESC, rowid DESC LIMIT -1 OFFSET ?',
      ),
      countUnsent: db.prepare<[string], number>('SELECT count(*) FROM diff_comments WHERE agent_id = ? AND sent_at IS NULL').pluck(),
      insert: db.prepare(
        `INSERT INTO diff_comments (id, agent_id, path, side, start_line, end_line, quoted, body, created_at, seq)
         VALUES (@id, @agentId, @path, @side, @startLine, @endLine, @quoted, @body, @createdAt, @seq)`,
      ),
      markSent: db.prepare('UPDATE diff_comments SET sent_at = @sentAt, message_id = @messageId, seq = @seq WHERE id = @id'),
      remove: db.prepare('DELETE FROM diff_comments WHERE id = ?'),
    };
  }

  get(id: string): DiffComment | undefined {
    const row = this.statements.get.get(id);
    return row && this.toComment(row);
  }

  /** Oldest first. */
  list(agentId: string): DiffComment[] {
    return this.statements.list.all(agentId).map((row) => this.toComment(row));
  }

  unsent(agentId: string): DiffComment[] {
    return this.statements.unsent.all(agentId).map((row) => this.toComment(row));
  }

  countUnsent(agentId: string): number {
    return this.statements.countUnsent.get(agentId) ?? 0;
  }

  /** Ids of the agent's sent comments past the newest `keep`. */
  sentBeyond(agentId: string, keep: number): string[] {
    return this.statements.sentBeyond.all(agentId, keep).map((row) => row.id);
  }

  insert(comment: NewComment): DiffComment {
    this.statements.insert.run({ ...comment, seq: this.seq.next() });
    return this.get(comment.id) as DiffComment;
  }

  markSent(id: string, messageId: string, sentAt: number): DiffComment {
    this.statements.markSent.run({ id, messageId, sentAt, seq: this.seq.next() });
    return this.get(id) as DiffComment;
  }

  /** Returns the seq of the removal. */
  remove(id: string): number {
    this.statements.remove.run(id);
    return this.seq.next();
  }

  private toComment(row: CommentRow): DiffComment {
    return {
      id: row.id,
      projectId: this.projectId,
      agentId: row.agent_id,
      path: row.path,
      side: row.side,
      startLine: row.start_line,
      endLine: row.end_line,
      quoted: row.quoted,
      body: row.body,
      createdAt: row.created_at,
      sentAt: row.sent_at,
      messageId: row.message_id,
      seq: row.seq,
    };
  }
}
