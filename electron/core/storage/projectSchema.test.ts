import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir, removeDir } from '../../../test-support/tempDir';
import { PROJECT_MIGRATIONS } from './projectSchema';
import { openDatabase } from './sqlite';

describe('the project schema, upgraded', () => {
  let dir: string;
  beforeEach(() => {
    dir = makeTempDir();
  });
  afterEach(() => removeDir(dir));

  it('counts as seen by the person the messages the agent had read before seen_at existed, and no others', () => {
    const file = path.join(dir, 'state.sqlite');
    const seenAtMigration = PROJECT_MIGRATIONS.findIndex((migration) => migration.includes('ADD COLUMN seen_at'));
    const before = openDatabase(file, { migrations: PROJECT_MIGRATIONS.slice(0, seenAtMigration), description: 'test' });
    before.prepare("INSERT INTO agents (id, name, profile_id, created_at, seq) VALUES ('a-1', 'alpha', 'shell', 1, 1)").run();
    const message = before.prepare(
      "INSERT INTO inbox_messages (id, agent_id, kind, body, state, created_at, delivered_at, read_at, seq) VALUES (?, 'a-1', 'note', 'hi', ?, 100, ?, ?, 2)",
    );
    message.run('m-read', 'read', 200, 300);
    message.run('m-delivered', 'delivered', 200, null);
    message.run('m-pending', 'pending', null, null);
    before.close();

    const after = openDatabase(file, { migrations: PROJECT_MIGRATIONS, description: 'test' });
    try {
      const seen = after.prepare<[], { id: string; seen_at: number | null }>('SELECT id, seen_at FROM inbox_messages ORDER BY id').all();
      expect(seen).toEqual([
        { id: 'm-delivered', seen_at: null },
        { id: 'm-pending', seen_at: null },
        { id: 'm-read', seen_at: 300 },
      ]);
    } finally {
      after.close();
    }
  });
});
