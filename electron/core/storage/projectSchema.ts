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
];
