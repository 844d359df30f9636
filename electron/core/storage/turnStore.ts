import type { CheckpointKind, Turn } from '../../../shared/turns';
import type { SeqCounter } from './seqCounter';
import type { SqliteDatabase } from './sqlite';

interface TurnRow {
  agent_id: string;
  n: number;
  kind: CheckpointKind;
  prompt: string | null;
  started_at: number | null;
  taken_at: number;
  commit_id: string;
  before_commit: string | null;
  after_commit: string;
  restored_to: number | null;
  files: number;
  additions: number;
  deletions: number;
  seq: number;
}

export type NewTurn = Omit<Turn, 'projectId' | 'ref' | 'seq'>;

/** The git ref that holds an agent's checkpoint `n`. */
export function checkpointRef(agentId: string, n: number): string {
  return `refs/drover/checkpoints/${agentId}/${n}`;
}

/** The checkpoints of one project's agents. */
export class TurnStore {
  private readonly statements;

  constructor(
    db: SqliteDatabase,
    readonly projectId: string,
    private readonly seq: SeqCounter,
  ) {
    this.statements = {
      list: db.prepare<[string], TurnRow>('SELECT * FROM turns WHERE agent_id = ? ORDER BY n'),
      get: db.prepare<[string, number], TurnRow>('SELECT * FROM turns WHERE agent_id = ? AND n = ?'),
      latest: db.prepare<[string], TurnRow>('SELECT * FROM turns WHERE agent_id = ? ORDER BY n DESC LIMIT 1'),
      count: db.prepare<[], number>('SELECT count(*) FROM turns').pluck(),
      insert: db.prepare(
        `INSERT INTO turns (agent_id, n, kind, prompt, started_at, taken_at, commit_id, before_commit, after_commit, restored_to, files, additions, deletions, seq)
         VALUES (@agentId, @n, @kind, @prompt, @startedAt, @takenAt, @commit, @before, @after, @restoredTo, @files, @additions, @deletions, @seq)`,
      ),
      remove: db.prepare('DELETE FROM turns WHERE agent_id = ? AND n = ?'),
    };
  }

  /** Oldest first. */
  list(agentId: string): Turn[] {
    return this.statements.list.all(agentId).map((row) => this.toTurn(row));
  }

  get(agentId: string, n: number): Turn | undefined {
    const row = this.statements.get.get(agentId, n);
    return row && this.toTurn(row);
  }

  latest(agentId: string): Turn | undefined {
    const row = this.statements.latest.get(agentId);
    return row && this.toTurn(row);
  }

  /** Checkpoints of every agent of the project. */
  count(): number {
    return this.statements.count.get() ?? 0;
  }

  insert(turn: NewTurn): Turn {
    this.statements.insert.run({ ...turn, seq: this.seq.next() });
    return this.get(turn.agentId, turn.n) as Turn;
  }

  /** Forgets a pruned checkpoint; returns the seq of the removal. */
  remove(agentId: string, n: number): number {
    this.statements.remove.run(agentId, n);
    return this.seq.next();
  }

  private toTurn(row: TurnRow): Turn {
    return {
      projectId: this.projectId,
      agentId: row.agent_id,
      n: row.n,
      kind: row.kind,
      prompt: row.prompt,
      startedAt: row.started_at,
      takenAt: row.taken_at,
      commit: row.commit_id,
      ref: checkpointRef(row.agent_id, row.n),
      before: row.before_commit,
      after: row.after_commit,
      restoredTo: row.restored_to,
      files: row.files,
      additions: row.additions,
      deletions: row.deletions,
      seq: row.seq,
    };
  }
}
