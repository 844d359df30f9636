import path from 'node:path';
import Database from 'better-sqlite3';

/**
 * Fills a stopped host's project store with `count` finished tasks, as months of agent work would:
 * every tenth failed, the rest succeeded.
 */
export function seedFinishedTasks(dataDir: string, projectId: string, folder: string, count: number): void {
  const db = new Database(path.join(dataDir, 'projects', projectId, 'state.sqlite'));
  try {
    const insert = db.prepare(
      `INSERT INTO tasks (id, label, command, cwd, state, exit_code, attempt, created_at, started_at, ended_at, log_path, seq)
       VALUES (@id, @label, @command, @cwd, @state, @exitCode, 1, @at, @at, @at, @logPath, @seq)`,
    );
    db.transaction(() => {
      for (let i = 0; i < count; i++) {
        const failed = i % 10 === 0;
        const id = `t-seed${String(i).padStart(6, '0')}`;
        insert.run({
          id,
          label: `job ${i}`,
          command: `make test SHARD=${i}`,
          cwd: folder,
          state: failed ? 'failed' : 'succeeded',
          exitCode: failed ? 1 : 0,
          at: 1_700_000_000_000 + i * 1000,
          logPath: path.join(dataDir, `${id}.log`),
          seq: i + 1,
        });
      }
    })();
  } finally {
    db.close();
  }
}
