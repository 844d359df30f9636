import type { FormerAgent } from '../../../shared/entities/agents';
import type { SeqCounter } from './seqCounter';
import type { SqliteDatabase } from './sqlite';

interface FormerAgentRow {
  id: string;
  name: string;
  role: string;
  profile_id: string;
  worktree_path: string | null;
  kept_branch: string | null;
  parent_branch: string | null;
  removed_at: number;
  seq: number;
}

/** The project's removed agents: what their tasks and kept branches still need of them. */
export class FormerAgentStore {
  private readonly statements;

  constructor(
    db: SqliteDatabase,
    readonly projectId: string,
    private readonly seq: SeqCounter,
  ) {
    this.statements = {
      all: db.prepare<[], FormerAgentRow>('SELECT * FROM former_agents ORDER BY removed_at, rowid'),
      byId: db.prepare<[string], FormerAgentRow>('SELECT * FROM former_agents WHERE id = ?'),
      insert: db.prepare(
        `INSERT OR REPLACE INTO former_agents (id, name, role, profile_id, worktree_path, kept_branch, parent_branch, removed_at, seq)
         VALUES (@id, @name, @role, @profileId, @worktreePath, @keptBranch, @parentBranch, @removedAt, @seq)`,
      ),
      dropBranch: db.prepare('UPDATE former_agents SET kept_branch = NULL, seq = @seq WHERE id = @id'),
    };
  }

  list(): FormerAgent[] {
    return this.statements.all.all().map((row) => this.toFormerAgent(row));
  }

  get(agentId: string): FormerAgent | undefined {
    const row = this.statements.byId.get(agentId);
    return row && this.toFormerAgent(row);
  }

  insert(agent: Omit<FormerAgent, 'projectId' | 'seq'>): FormerAgent {
    this.statements.insert.run({ ...agent, seq: this.seq.next() });
    return this.get(agent.id) as FormerAgent;
  }

  /** Its kept branch was deleted. */
  dropBranch(agentId: string): FormerAgent {
    this.statements.dropBranch.run({ id: agentId, seq: this.seq.next() });
    return this.get(agentId) as FormerAgent;
  }

  private toFormerAgent(row: FormerAgentRow): FormerAgent {
    return {
      id: row.id,
      projectId: this.projectId,
      name: row.name,
      role: row.role,
      profileId: row.profile_id,
      worktreePath: row.worktree_path,
      keptBranch: row.kept_branch,
      parentBranch: row.parent_branch,
      removedAt: row.removed_at,
      seq: row.seq,
    };
  }
}
