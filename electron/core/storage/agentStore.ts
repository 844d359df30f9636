import type { Agent } from '../../../shared/entities/agents';
import type { SeqCounter } from './seqCounter';
import type { SqliteDatabase } from './sqlite';

interface AgentRow {
  id: string;
  name: string;
  role: string;
  profile_id: string;
  wakes_held: number;
  created_at: number;
  seq: number;
}

/** The agents of one project, in the project's work-state database. */
export class AgentStore {
  private readonly statements;

  constructor(
    db: SqliteDatabase,
    readonly projectId: string,
    private readonly seq: SeqCounter,
  ) {
    this.statements = {
      all: db.prepare<[], AgentRow>('SELECT * FROM agents ORDER BY created_at, rowid'),
      byId: db.prepare<[string], AgentRow>('SELECT * FROM agents WHERE id = ?'),
      byName: db.prepare<[string], AgentRow>('SELECT * FROM agents WHERE name = ?'),
      insert: db.prepare('INSERT INTO agents (id, name, role, profile_id, created_at, seq) VALUES (@id, @name, @role, @profileId, @createdAt, @seq)'),
      update: db.prepare('UPDATE agents SET name = @name, role = @role, profile_id = @profileId, wakes_held = @wakesHeld, seq = @seq WHERE id = @id'),
      remove: db.prepare('DELETE FROM agents WHERE id = ?'),
    };
  }

  list(): Agent[] {
    return this.statements.all.all().map((row) => this.toAgent(row));
  }

  get(agentId: string): Agent | undefined {
    const row = this.statements.byId.get(agentId);
    return row && this.toAgent(row);
  }

  byName(name: string): Agent | undefined {
    const row = this.statements.byName.get(name);
    return row && this.toAgent(row);
  }

  /** Agents are named by id or by name (names are unique in a project, in any case). */
  byIdOrName(key: string): Agent | undefined {
    return this.get(key) ?? this.byName(key);
  }

  insert(agent: Pick<Agent, 'id' | 'name' | 'role' | 'profileId' | 'createdAt'>): Agent {
    this.statements.insert.run({ ...agent, seq: this.seq.next() });
    return this.get(agent.id) as Agent;
  }

  update(agent: Pick<Agent, 'id' | 'name' | 'role' | 'profileId' | 'wakesHeld'>): Agent {
    this.statements.update.run({ ...agent, wakesHeld: agent.wakesHeld ? 1 : 0, seq: this.seq.next() });
    return this.get(agent.id) as Agent;
  }

  /** Removes the agent and, by cascade, its sessions, messages and wakes; returns the seq of the removal. */
  remove(agentId: string): number {
    this.statements.remove.run(agentId);
    return this.seq.next();
  }

  private toAgent(row: AgentRow): Agent {
    return {
      id: row.id,
      projectId: this.projectId,
      name: row.name,
      role: row.role,
      profileId: row.profile_id,
      wakesHeld: row.wakes_held === 1,
      createdAt: row.created_at,
      seq: row.seq,
    };
  }
}
