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
  `
  ALTER TABLE agents ADD COLUMN wakes_held INTEGER NOT NULL DEFAULT 0;
  CREATE TABLE inbox_messages (
    id TEXT PRIMARY KEY,
    agent_id TEXT NOT NULL REFERENCES agents(id) ON DELETE CASCADE,
    kind TEXT NOT NULL CHECK (kind IN ('task-result','question','reply','note')),
    body TEXT NOT NULL,
    task_id TEXT,
    from_agent_id TEXT,
    reply_to TEXT,
    state TEXT NOT NULL CHECK (state IN ('pending','delivered','read')),
    created_at INTEGER NOT NULL,
    delivered_at INTEGER,
    read_at INTEGER,
    seq INTEGER NOT NULL
  );
  CREATE INDEX inbox_by_agent ON inbox_messages (agent_id, state, created_at);
  -- A task posts exactly one result, whatever happens to the host in between.
  CREATE UNIQUE INDEX one_result_per_task ON inbox_messages (task_id) WHERE kind = 'task-result';
  CREATE TABLE wakes (
    id TEXT PRIMARY KEY,
    agent_id TEXT NOT NULL REFERENCES agents(id) ON DELETE CASCADE,
    message_ids TEXT NOT NULL,
    state TEXT NOT NULL CHECK (state IN ('waiting','delivering','delivered','failed')),
    attempts INTEGER NOT NULL DEFAULT 0,
    not_before INTEGER,
    last_error TEXT,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    seq INTEGER NOT NULL
  );
  CREATE INDEX wakes_by_agent ON wakes (agent_id, state);
  `,
  `
  -- An agent CLI's own plan quota (JSON), where it reports one.
  ALTER TABLE agent_sessions ADD COLUMN quota TEXT;
  `,
  `
  -- An agent's own git worktree. A row is written (state 'creating') before anything is made on
  -- disk, so a crash during creation is found and undone at boot.
  CREATE TABLE worktrees (
    agent_id TEXT PRIMARY KEY REFERENCES agents(id) ON DELETE CASCADE,
    path TEXT NOT NULL UNIQUE,
    subdir TEXT NOT NULL DEFAULT '',
    branch TEXT NOT NULL,
    parent_branch TEXT NOT NULL,
    base_commit TEXT NOT NULL,
    state TEXT NOT NULL CHECK (state IN ('creating','ready','missing')),
    owns_folder INTEGER NOT NULL,
    owns_branch INTEGER NOT NULL,
    port_base INTEGER,
    changed_at INTEGER,
    created_at INTEGER NOT NULL,
    seq INTEGER NOT NULL
  );
  `,
  `
  -- A merge or removal of the worktree under way, journalled before its first change so that the
  -- boot after a crash finds it: 'merging' with the tips it started from (the rebase it began is
  -- told by them), 'removing' once everything in the folder was committed or is to be discarded.
  ALTER TABLE worktrees ADD COLUMN operation TEXT CHECK (operation IN ('merging','removing'));
  ALTER TABLE worktrees ADD COLUMN operation_branch_tip TEXT;
  ALTER TABLE worktrees ADD COLUMN operation_onto TEXT;
  `,
  `
  -- What ties an agent to the forge: the issue it was started on and its pull request as last
  -- read (JSON), and what of it was sent to the agent.
  CREATE TABLE forge_links (
    agent_id TEXT PRIMARY KEY REFERENCES agents(id) ON DELETE CASCADE,
    issue TEXT,
    pull_request TEXT,
    checks_sent_for TEXT,
    sent_comment_ids TEXT NOT NULL DEFAULT '[]',
    seq INTEGER NOT NULL
  );
  `,
  `
  -- Checkpoints of an agent's worktree, one per turn (n = 0: its start), each held by the git ref
  -- refs/drover/checkpoints/<agent>/<n>.
  CREATE TABLE turns (
    agent_id TEXT NOT NULL REFERENCES agents(id) ON DELETE CASCADE,
    n INTEGER NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('start','turn','restore')),
    prompt TEXT,
    started_at INTEGER,
    taken_at INTEGER NOT NULL,
    commit_id TEXT NOT NULL,
    before_commit TEXT,
    after_commit TEXT NOT NULL,
    restored_to INTEGER,
    files INTEGER NOT NULL,
    additions INTEGER NOT NULL,
    deletions INTEGER NOT NULL,
    seq INTEGER NOT NULL,
    PRIMARY KEY (agent_id, n)
  );
  -- A person's comments on lines of an agent's diff, kept until sent (and a while after).
  CREATE TABLE diff_comments (
    id TEXT PRIMARY KEY,
    agent_id TEXT NOT NULL REFERENCES agents(id) ON DELETE CASCADE,
    path TEXT NOT NULL,
    side TEXT NOT NULL CHECK (side IN ('old','new')),
    start_line INTEGER NOT NULL,
    end_line INTEGER NOT NULL,
    quoted TEXT NOT NULL,
    body TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    sent_at INTEGER,
    message_id TEXT,
    seq INTEGER NOT NULL
  );
  CREATE INDEX diff_comments_by_agent ON diff_comments (agent_id, created_at);
  `,
  `
  -- The agent CLI's version (JSON: version, newerThanTested), read when the session started.
  ALTER TABLE agent_sessions ADD COLUMN cli_version TEXT;
  `,
  `
  -- Removed agents, as their tasks and kept branches still name them.
  CREATE TABLE former_agents (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    role TEXT NOT NULL,
    profile_id TEXT NOT NULL,
    worktree_path TEXT,
    kept_branch TEXT,
    parent_branch TEXT,
    removed_at INTEGER NOT NULL,
    seq INTEGER NOT NULL
  );
  `,
  `
  -- When a person first saw the message in the agent's inbox (the pane counts the ones not seen yet).
  ALTER TABLE inbox_messages ADD COLUMN seen_at INTEGER;
  -- What the pane counted before (the messages the agent had not read) stays what it counts: a
  -- store from before this column does not bring every message ever read back as new.
  UPDATE inbox_messages SET seen_at = coalesce(read_at, delivered_at, created_at) WHERE state = 'read';
  `,
  `
  -- A checkpoint may also be the state before a person reverted a hunk or a file (kind 'revert'):
  -- SQLite changes a CHECK only by building the table again.
  CREATE TABLE turns_with_revert (
    agent_id TEXT NOT NULL REFERENCES agents(id) ON DELETE CASCADE,
    n INTEGER NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('start','turn','restore','revert')),
    prompt TEXT,
    started_at INTEGER,
    taken_at INTEGER NOT NULL,
    commit_id TEXT NOT NULL,
    before_commit TEXT,
    after_commit TEXT NOT NULL,
    restored_to INTEGER,
    files INTEGER NOT NULL,
    additions INTEGER NOT NULL,
    deletions INTEGER NOT NULL,
    seq INTEGER NOT NULL,
    PRIMARY KEY (agent_id, n)
  );
  INSERT INTO turns_with_revert SELECT agent_id, n, kind, prompt, started_at, taken_at, commit_id, before_commit, after_commit, restored_to, files, additions, deletions, seq FROM turns;
  DROP TABLE turns;
  ALTER TABLE turns_with_revert RENAME TO turns;
  `,
  `
  -- Needs you items the person dismissed or opened (their keys), kept by the host so every page
  -- hides the same ones; a key goes when its item ended, and the oldest go past a bound.
  CREATE TABLE handled_attention (
    key TEXT PRIMARY KEY,
    handled_at INTEGER NOT NULL,
    seq INTEGER NOT NULL
  );
  CREATE INDEX handled_attention_by_age ON handled_attention (handled_at);
  `,
  `
  -- Rules the host runs with nobody at the window: one trigger and one action each (JSON).
  CREATE TABLE automations (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL UNIQUE COLLATE NOCASE,
    trigger TEXT NOT NULL,
    action TEXT NOT NULL,
    enabled INTEGER NOT NULL DEFAULT 1,
    paused_reason TEXT,
    daily_cap INTEGER NOT NULL,
    catch_up_ms INTEGER NOT NULL,
    failures_in_row INTEGER NOT NULL DEFAULT 0,
    -- A schedule's runs up to here were handled (run, skipped, or let go as too late).
    checked_until INTEGER NOT NULL,
    created_at INTEGER NOT NULL,
    seq INTEGER NOT NULL
  );
  CREATE TABLE automation_runs (
    id TEXT PRIMARY KEY,
    automation_id TEXT NOT NULL REFERENCES automations(id) ON DELETE CASCADE,
    -- The event it answered (a task's id, a schedule's time): an event sets a rule off once.
    event_key TEXT NOT NULL,
    trigger TEXT NOT NULL,
    state TEXT NOT NULL CHECK (state IN ('running','succeeded','failed','skipped')),
    task_id TEXT,
    agent_id TEXT,
    reason TEXT,
    started_at INTEGER NOT NULL,
    ended_at INTEGER,
    seq INTEGER NOT NULL
  );
  CREATE UNIQUE INDEX one_run_per_event ON automation_runs (automation_id, event_key);
  CREATE INDEX automation_runs_by_task ON automation_runs (task_id) WHERE task_id IS NOT NULL;
  `,
  `
  -- Agents' branches waiting to land on their parent branch, one at a time per parent, in position
  -- order; an entry under way (rebasing, checking) when the host stopped is taken again at boot.
  CREATE TABLE merge_queue (
    agent_id TEXT PRIMARY KEY REFERENCES agents(id) ON DELETE CASCADE,
    branch TEXT NOT NULL,
    parent_branch TEXT NOT NULL,
    state TEXT NOT NULL CHECK (state IN ('queued','rebasing','checking','merged','handed-back')),
    reason TEXT,
    position INTEGER NOT NULL,
    check_task_id TEXT,
    merged_commit TEXT,
    queued_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    seq INTEGER NOT NULL
  );
  CREATE INDEX merge_queue_by_parent ON merge_queue (parent_branch, position);
  `,
  `
  -- When the rule got its trigger (made, or edited to another): an issue-opened rule answers the
  -- issues opened since. NULL: since it was made.
  ALTER TABLE automations ADD COLUMN trigger_set_at INTEGER;
  `,
];

/** Every table whose rows carry the project's seq; the counter resumes at the max over them. */
export const SEQ_TABLES = ['tasks', 'agents', 'agent_sessions', 'inbox_messages', 'wakes', 'worktrees', 'forge_links', 'turns', 'diff_comments', 'former_agents', 'handled_attention', 'automations', 'automation_runs', 'merge_queue'] as const;
