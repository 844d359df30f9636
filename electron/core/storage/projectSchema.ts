/** Numbered migrations of `<dataDir>/projects/<id>/state.sqlite`; append only. */
export const PROJECT_MIGRATIONS: readonly string[] = [
  `
  CREATE TABLE tasks (
    id TEXT PRIMARY KEY,
    owner_agent_id TEXT,
    label TEXT,
    command TEXT NOT NULL,
    cwd TEXT NOT NULL,
    state TEXT NOT NULL CHECK (state IN ('queued','running','cancelling','succeeded','failed','cancelled','interrupted')),
    exit_code INTEGER,
    signal TEXT,
    reason TEXT,
    attempt INTEGER NOT NULL DEFAULT 1,
    retry_of TEXT REFERENCES tasks(id),
    created_at INTEGER NOT NULL,
    started_at INTEGER,
    ended_at INTEGER,
    pid INTEGER,
    pid_start_time TEXT,
    log_path TEXT NOT NULL,
    output_bytes INTEGER NOT NULL DEFAULT 0,
    seq INTEGER NOT NULL
  );
  CREATE INDEX tasks_by_state ON tasks (state, created_at);
  CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);
  `,
  `
  CREATE TABLE agents (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL UNIQUE COLLATE NOCASE,
    role TEXT NOT NULL DEFAULT '',
    profile_id TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    seq INTEGER NOT NULL
  );
  CREATE TABLE agent_sessions (
    id TEXT PRIMARY KEY,
    agent_id TEXT NOT NULL REFERENCES agents(id) ON DELETE CASCADE,
    profile_id TEXT NOT NULL,
    state TEXT NOT NULL CHECK (state IN ('starting','busy','ready','limited','exited')),
    needs_input INTEGER NOT NULL DEFAULT 0,
    pid INTEGER,
    pid_start_time TEXT,
    limit_resets_at INTEGER,
    exit_code INTEGER,
    end_reason TEXT,
    external_session_id TEXT,
    started_at INTEGER NOT NULL,
    ended_at INTEGER,
    seq INTEGER NOT NULL
  );
  CREATE INDEX agent_sessions_by_agent ON agent_sessions (agent_id, started_at);
  `,
];

/** Every table whose rows carry the project's seq; the counter resumes at the max over them. */
export const SEQ_TABLES = ['tasks', 'agents', 'agent_sessions'] as const;
