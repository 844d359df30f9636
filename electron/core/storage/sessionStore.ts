import type { AgentCliVersion, AgentQuota, AgentSession, AgentSessionState } from '../../../shared/entities/sessions';
import { PartialUpdate } from './partialUpdate';
import type { SeqCounter } from './seqCounter';
import type { SqliteDatabase } from './sqlite';

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
  quota: string | null;
  cli_version: string | null;
  started_at: number;
  ended_at: number | null;
  seq: number;
}

export type SessionRecord = AgentSession & { pidStartTime: string | null };

export type SessionChange = Partial<
  Pick<
    SessionRecord,
    'state' | 'needsInput' | 'pid' | 'pidStartTime' | 'limitResetsAt' | 'exitCode' | 'endReason' | 'externalSessionId' | 'quota' | 'cliVersion' | 'endedAt'
  >
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
  quota: 'quota',
  cliVersion: 'cli_version',
  endedAt: 'ended_at',
};

/** The terminal sessions of one project's agents. */
export class SessionStore {
  private readonly statements;
  private readonly partialUpdate: PartialUpdate<SessionChange>;

  constructor(
    db: SqliteDatabase,
    readonly projectId: string,
    private readonly seq: SeqCounter,
  ) {
    this.partialUpdate = new PartialUpdate(db, 'agent_sessions', SESSION_COLUMNS);
    this.statements = {
      byId: db.prepare<[string], SessionRow>('SELECT * FROM agent_sessions WHERE id = ?'),
      latest: db.prepare<[string], SessionRow>('SELECT * FROM agent_sessions WHERE agent_id = ? ORDER BY started_at DESC, rowid DESC LIMIT 1'),
      latestAll: db.prepare<[], SessionRow>(
        `SELECT s.* FROM agent_sessions s
         WHERE s.rowid = (SELECT rowid FROM agent_sessions WHERE agent_id = s.agent_id ORDER BY started_at DESC, rowid DESC LIMIT 1)`,
      ),
      live: db.prepare<[], SessionRow>("SELECT * FROM agent_sessions WHERE state != 'exited'"),
      lastExternalId: db.prepare<[string], { external_session_id: string }>(
        `SELECT external_session_id FROM agent_sessions WHERE agent_id = ? AND external_session_id IS NOT NULL
         ORDER BY started_at DESC, rowid DESC LIMIT 1`,
      ),
      insert: db.prepare(
        `INSERT INTO agent_sessions (id, agent_id, profile_id, state, started_at, seq)
         VALUES (@id, @agentId, @profileId, 'starting', @startedAt, @seq)`,
      ),
    };
  }

  get(sessionId: string): SessionRecord | undefined {
    const row = this.statements.byId.get(sessionId);
    return row && this.toSession(row);
  }

  latest(agentId: string): SessionRecord | undefined {
    const row = this.statements.latest.get(agentId);
    return row && this.toSession(row);
  }

  /** The latest session of each agent that has one. */
  latestOfEach(): AgentSession[] {
    return this.statements.latestAll.all().map((row) => publicSession(this.toSession(row)));
  }

  /** The agent CLI's own conversation id last known for this agent, from whichever session learnt it. */
  lastExternalSessionId(agentId: string): string | null {
    return this.statements.lastExternalId.get(agentId)?.external_session_id ?? null;
  }

  /** Sessions not recorded as exited: after a restart, these were cut off. */
  live(): SessionRecord[] {
    return this.statements.live.all().map((row) => this.toSession(row));
  }

  insert(session: Pick<AgentSession, 'id' | 'agentId' | 'profileId' | 'startedAt'>): SessionRecord {
    this.statements.insert.run({ ...session, seq: this.seq.next() });
    return this.get(session.id) as SessionRecord;
  }

  update(sessionId: string, change: SessionChange): SessionRecord {
    const stored: Record<string, unknown> = { ...change };
    if (change.needsInput !== undefined) stored.needsInput = change.needsInput ? 1 : 0;
    if (change.quota !== undefined) stored.quota = change.quota && JSON.stringify(change.quota);
    if (change.cliVersion !== undefined) stored.cliVersion = change.cliVersion && JSON.stringify(change.cliVersion);
    this.partialUpdate.run(sessionId, stored as SessionChange, this.seq.next());
    return this.get(sessionId) as SessionRecord;
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
      quota: row.quota ? (JSON.parse(row.quota) as AgentQuota) : null,
      cliVersion: row.cli_version ? (JSON.parse(row.cli_version) as AgentCliVersion) : null,
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
