import type { SeqCounter } from './seqCounter';
import type { SqliteDatabase } from './sqlite';

/** The keys of the Needs you items the person handled in the project, oldest first. */
export class HandledAttentionStore {
  private readonly statements;

  constructor(
    private readonly db: SqliteDatabase,
    private readonly seq: SeqCounter,
  ) {
    this.statements = {
      keys: db.prepare<[], string>('SELECT key FROM handled_attention ORDER BY handled_at, rowid').pluck(),
      add: db.prepare<[string, number, number]>('INSERT INTO handled_attention (key, handled_at, seq) VALUES (?, ?, ?) ON CONFLICT (key) DO NOTHING'),
      remove: db.prepare<[string]>('DELETE FROM handled_attention WHERE key = ?'),
      beyond: db.prepare<[number]>('DELETE FROM handled_attention WHERE rowid IN (SELECT rowid FROM handled_attention ORDER BY handled_at DESC, rowid DESC LIMIT -1 OFFSET ?)'),
    };
  }

  keys(): string[] {
    return this.statements.keys.all();
  }

  /**
   * Adds the handled keys and drops the ended ones, then the oldest past `kept`, in one
   * transaction; returns the seq of the change, or null when nothing changed.
   */
  change(handled: readonly string[], ended: readonly string[], at: number, kept: number): number | null {
    return this.db.transaction(() => {
      const seq = this.seq.current + 1;
      let changes = 0;
      for (const key of handled) changes += this.statements.add.run(key, at, seq).changes;
      for (const key of ended) changes += this.statements.remove.run(key).changes;
      changes += this.statements.beyond.run(kept).changes;
      return changes > 0 ? this.seq.next() : null;
    })();
  }
}
