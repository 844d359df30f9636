import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MethodResult } from '../../../shared/contract';
import { MAX_SERVER_FRAME_BYTES, REPLY_PAGE_BYTES } from '../../../shared/protocol';
import { startServe, type ServeProcess } from '../../../test-support/droverProcess';
import { rawSocketClient, rawWebSocketClient, type RawClient } from '../../../test-support/rawClients';
import { reportFigures } from '../../../test-support/reliabilityFigures';
import { makeTempDir, removeDir } from '../../../test-support/tempDir';
import { waitFor } from '../../../test-support/waitFor';
import { socketPathFor } from '../../wire/paths';

const TASKS = 950;
/** About 100 KB of control characters: six bytes each once JSON-escaped, ~570 MB for all of them. */
const COMMAND = `: '${Array.from({ length: 99_000 }, (_, i) => String.fromCharCode(1 + (i % 8))).join('')}'`;

/** What the reporter had: a store of tasks whose commands are huge once escaped. */
function seedTasks(stateFile: string, repo: string): void {
  const db = new Database(stateFile);
  const seq = (db.prepare('SELECT coalesce(max(seq), 0) FROM tasks').pluck().get() as number) + 1;
  const insert = db.prepare(
    `INSERT INTO tasks (id, owner_agent_id, label, command, cwd, state, exit_code, attempt, created_at, started_at, ended_at, log_path, seq)
     VALUES (?, NULL, NULL, ?, ?, 'succeeded', 0, 1, ?, ?, ?, ?, ?)`,
  );
  db.transaction(() => {
    for (let i = 0; i < TASKS; i++) {
      const id = `t-seed${String(i).padStart(10, '0')}`;
      insert.run(id, COMMAND, repo, 1_700_000_000_000 + i, 1_700_000_000_000 + i, 1_700_000_000_001 + i, path.join(repo, `${id}.log`), seq + i);
    }
  })();
  db.close();
}

describe('replies that would not fit in one string', () => {
  let dir: string;
  let dataDir: string;
  let serve: ServeProcess;
  let projectId: string;
  const figures: Record<string, number> = {};

  beforeAll(async () => {
    dir = makeTempDir();
    dataDir = path.join(dir, 'data');
    const repo = path.join(dir, 'repo');
    fs.mkdirSync(repo);
    serve = await startServe(['--data-dir', dataDir, '--project', repo]);
    await serve.stop();
    projectId = fs.readdirSync(path.join(dataDir, 'projects'))[0] as string;
    seedTasks(path.join(dataDir, 'projects', projectId, 'state.sqlite'), repo);
    serve = await startServe(['--data-dir', dataDir]);
  }, 60_000);
  afterAll(async () => {
    reportFigures('oversized replies', figures);
    await serve.stop();
    removeDir(dir);
  });

  /** Asks and waits for the reply; notes the size of the frame it came in. */
  async function ask<T>(client: RawClient, id: number, method: string, params: object): Promise<T> {
    client.send(JSON.stringify({ t: 'req', id, method, params }));
    const reply = await waitFor(() => client.replies.find((frame) => frame.id === id), `${method} ${id}`, 30_000);
    if (!reply.ok) throw new Error(`${method} failed: ${reply.error.message}`);
    return reply.result as T;
  }

  const frameBytes = (client: RawClient) => client.replies.map((reply) => Buffer.byteLength(JSON.stringify(reply)));

  it(`listTasks pages ${TASKS} huge tasks over the local socket, each reply bounded`, async () => {
    const client = await rawSocketClient(socketPathFor(dataDir));
    const ids = new Set<string>();
    let pages = 0;
    for (let after: string | null | undefined; after !== null; pages++) {
      const page = await ask<MethodResult<'listTasks'>>(client, pages + 1, 'listTasks', { projectId, ...(after ? { after } : {}) });
      page.tasks.forEach((task) => ids.add(task.id));
      after = page.next;
    }
    client.close();
    const sizes = frameBytes(client);
    expect(ids.size).toBe(TASKS);
    expect(Math.max(...sizes)).toBeLessThan(REPLY_PAGE_BYTES + 1024 * 1024);
    figures['listTasks pages'] = pages;
    figures['largest listTasks reply KB'] = Math.round(Math.max(...sizes) / 1024);
    figures['all tasks as JSON MB'] = Math.round(sizes.reduce((sum, size) => sum + size, 0) / 1024 / 1024);
  }, 120_000);

  it('getWorkState comes in bounded parts over the WebSocket, as the first call after a restart', async () => {
    await serve.stop();
    serve = await startServe(['--data-dir', dataDir]);
    const client = await rawWebSocketClient(serve.url);
    // The page's first call after a restart is what used to kill the host; the parts after it are
    // the same pages listTasks walked above (workStateSnapshot.test.ts checks they add up).
    let tasks = 0;
    let after: string | null | undefined;
    for (let part = 1; part <= 5 && after !== null; part++) {
      const reply = await ask<MethodResult<'getWorkState'>>(client, part, 'getWorkState', { projectId, ...(after ? { after } : {}) });
      tasks += reply.tasks.length;
      after = reply.next;
    }
    client.close();
    expect(tasks).toBeGreaterThan(0);
    expect(after).toMatch(/^tasks:t-seed/);
    expect(Math.max(...frameBytes(client))).toBeLessThan(REPLY_PAGE_BYTES + 1024 * 1024);
    expect(serve.hostAlive()).toBe(true);
    expect(serve.hostLog()).not.toMatch(/unexpected error|RangeError/);
    figures['getWorkState parts read after the restart'] = 5;
    figures.crashes = 0;
    figures['frame limit MB'] = MAX_SERVER_FRAME_BYTES / 1024 / 1024;
  }, 180_000);
});
