import type { Agent, AgentSession, AgentSessionState } from '../../../shared/entities';
import type { SeqCounter } from '../storage/seqCounter';
import { PartialUpdate } from '../storage/partialUpdate';
import type { SqliteDatabase } from '../storage/sqlite';

interface AgentRow {
  id: string;
  name: string;
  role: string;
  profile_id: string;
  wakes_held: number;
  created_at: number;
  seq: number;
}

interface SessionRow {
  id: string;
  agent_id: string;
  profile_id: string;
  state: AgentSessionState;
  needs_input: number;
  pid: number | null;
  pid_start_time: string | null;
  limit_resets_at: number | null;
  exit_code: number | null;
  end_reason: string | null;
  external_session_id: string | null;
  started_at: number;
  ended_at: number | null;
  seq: number;
}

export type SessionRecord = AgentSession & { pidStartTime: string | null };

export type SessionChange = Partial<
  Pick<SessionRecord, 'state' | 'needsInput' | 'pid' | 'pidStartTime' | 'limitResetsAt' | 'exitCode' | 'endReason' | 'externalSessionId' | 'endedAt'>
>;

const SESSION_COLUMNS: Record<keyof SessionChange, keyof SessionRow> = {
  state: 'state',
  needsInput: 'needs_input',
  pid: 'pid',
  pidStartTime: 'pid_start_time',
  limitResetsAt: 'limit_resets_at',
  exitCode: 'exit_code',
  endReason: 'end_reason',
  externalSessionId: 'external_session_id',
  endedAt: 'ended_at',
};

/** Agents of one project and their sessions, in the project's work-state database. */
export class AgentStore {
  private readonly statements;
  private readonly sessionUpdate: PartialUpdate<SessionChange>;

  constructor(
    db: SqliteDatabase,
    readonly projectId: string,
    private readonly seq: SeqCounter,
  ) {
    this.sessionUpdate = new PartialUpdate(db, 'agent_sessions', SESSION_COLUMNS);
    this.statements = {
      all: db.prepare<[], AgentRow>('SELECT * FROM agents ORDER BY created_at, rowid'),
      byId: db.prepare<[string], AgentRow>('SELECT * FROM agents WHERE id = ?'),
      byName: db.prepare<[string], AgentRow>('SELECT * FROM agents WHERE name = ?'),
      insert: db.prepare('INSERT INTO agents (id, name, role, profile_id, created_at, seq) VALUES (@id, @name, @role, @profileId, @createdAt, @seq)'),
      update: db.prepare('UPDATE agents SET name = @name, role = @role, profile_id = @profileId, wakes_held = @wakesHeld, seq = @seq WHERE id = @id'),
      remove: db.prepare('DELETE FROM agents WHERE id = ?'),
      session: db.prepare<[string], SessionRow>('SELECT * FROM agent_sessions WHERE id = ?'),
      latest: db.prepare<[string], SessionRow>('SELECT * FROM agent_sessions WHERE agent_id = ? ORDER BY started_at DESC, rowid DESC LIMIT 1'),
      latestAll: db.prepare<[], SessionRow>(
        `SELECT s.* FROM agent_sessions s
         WHERE s.rowid = (SELECT rowid FROM agent_sessions WHERE agent_id = s.agent_id ORDER BY started_at DESC, rowid DESC LIMIT 1)`,
      ),
      live: db.prepare<[], SessionRow>("SELECT * FROM agent_sessions WHERE state != 'exited'"),
      insertSession: db.prepare(
        `INSERT INTO agent_sessions (id, agent_id, profile_id, state, started_at, seq)
         VALUES (@id, @agentId, @profileId, 'starting', @startedAt, @seq)`,
      ),
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

  insert(agent: Pick<Agent, 'id' | 'name' | 'role' | 'profileId' | 'createdAt'>): Agent {
    this.statements.insert.run({ ...agent, seq: this.seq.next() });
    return this.get(agent.id) as Agent;
  }

  update(agent: Pick<Agent, 'id' | 'name' | 'role' | 'profileId' | 'wakesHeld'>): Agent {
    this.statements.update.run({ ...agent, wakesHeld: agent.wakesHeld ? 1 : 0, seq: this.seq.next() });
    return this.get(agent.id) as Agent;
  }

  /** Removes the agent and its sessions; returns the seq of the removal. */
  remove(agentId: string): number {
    this.statements.remove.run(agentId);
    return this.seq.next();
  }

  session(sessionId: string): SessionRecord | undefined {
    const row = this.statements.session.get(sessionId);
    return row && this.toSession(row);
  }

  latestSession(agentId: string): SessionRecord | undefined {
    const row = this.statements.latest.get(agentId);
    return row && this.toSession(row);
  }

  latestSessions(): AgentSession[] {
    return this.statements.latestAll.all().map((row) => publicSession(this.toSession(row)));
  }

  /** Sessions not recorded as exited: after a restart, these were cut off. */
  liveSessions(): SessionRecord[] {
    return this.statements.live.all().map((row) => this.toSession(row));
  }

  insertSession(session: Pick<AgentSession, 'id' | 'agentId' | 'profileId' | 'startedAt'>): SessionRecord {
    this.statements.insertSession.run({ ...session, seq: this.seq.next() });
    return this.session(session.id) as SessionRecord;
  }

  updateSession(sessionId: string, change: SessionChange): SessionRecord {
    const stored = change.needsInput === undefined ? change : { ...change, needsInput: change.needsInput ? 1 : 0 };
    this.sessionUpdate.run(sessionId, stored as SessionChange, this.seq.next());
    return this.session(sessionId) as SessionRecord;
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

  private toSession(row: SessionRow): SessionRecord {
    return {
      id: row.id,
      agentId: row.agent_id,
      projectId: this.projectId,
      profileId: row.profile_id,
      state: row.state,
      needsInput: row.needs_input === 1,
      pid: row.pid,
      pidStartTime: row.pid_start_time,
      limitResetsAt: row.limit_resets_at,
      exitCode: row.exit_code,
      endReason: row.end_reason,
      externalSessionId: row.external_session_id,
      startedAt: row.started_at,
      endedAt: row.ended_at,
      seq: row.seq,
    };
  }
}

/** The session as the contract shows it (the pid start time stays inside the core). */
export function publicSession(session: SessionRecord): AgentSession {
  const { pidStartTime: _pidStartTime, ...rest } = session;
  return rest;
}
