import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InboxMessage } from '../../../shared/entities/inbox';
import { isTaskFinished, type Task } from '../../../shared/entities/tasks';
import { startServe, type ServeProcess } from '../../../test-support/droverProcess';
import { rawWebSocketClient } from '../../../test-support/rawClients';
import { reportFigures } from '../../../test-support/reliabilityFigures';
import { makeTempDir, removeDir } from '../../../test-support/tempDir';
import { waitFor } from '../../../test-support/waitFor';
import { connectToDrover, type SocketClient } from '../../cli/socketClient';
import { isSameProcessAlive, signalProcessGroup } from '../../core/process/processGroup';
import { socketPathFor } from '../../wire/paths';

const ROUNDS = 10;
const TASKS_PER_ROUND = 12;
const MALFORMED_PER_ROUND = 2_000;

/** What each round does to the host while it is killed: tasks of every kind, owned by an agent. */
const COMMANDS = [
  (n: number) => `echo quick-${n}`,
  () => 'sleep 30',
  // Ignores the hang-up the dying host's terminal sends: only reconciliation can end it.
  () => "trap '' HUP TERM; sleep 30",
  // An output flood.
  () => 'head -c 3000000 /dev/urandom | base64',
];

async function allPages<T>(read: (after: string | undefined) => Promise<{ items: T[]; next: string | null }>): Promise<T[]> {
  const items: T[] = [];
  for (let after: string | undefined; ; ) {
    const page = await read(after);
    items.push(...page.items);
    if (page.next === null) return items;
    after = page.next;
  }
}

describe('SIGKILL of the host during floods, round after round', () => {
  let dir: string;
  let dataDir: string;
  let serve: ServeProcess | undefined;
  const figures: Record<string, number> = {};
  const started: { pid: number; pidStartTime: string | null }[] = [];

  beforeAll(() => {
    dir = makeTempDir();
    dataDir = path.join(dir, 'data');
    fs.mkdirSync(path.join(dir, 'repo'));
  });
  afterAll(async () => {
    reportFigures('SIGKILL during floods', figures);
    await serve?.stop();
    // Whatever a failed run left behind.
    for (const { pid, pidStartTime } of started) if (isSameProcessAlive(pid, pidStartTime)) signalProcessGroup(pid, 'SIGKILL');
    removeDir(dir);
  });

  it(`loses no row, posts no result twice, strands nothing and leaves no process, over ${ROUNDS} rounds`, async () => {
    const acknowledged = new Set<string>();
    let lostRows = 0;
    let orphans = 0;
    let stuck = 0;
    let malformedSent = 0;
    let projectId = '';
    let ownerId = '';
    const connect = (): Promise<SocketClient> => connectToDrover(socketPathFor(dataDir));

    for (let round = 0; round <= ROUNDS; round++) {
      serve = await startServe(['--data-dir', dataDir, ...(round === 0 ? ['--project', path.join(dir, 'repo')] : [])]);
      const client = await connect();
      if (round === 0) {
        projectId = (await client.rpc.call('listProjects', {})).projects[0]?.id as string;
        await client.rpc.call('updateProjectSettings', { projectId, settings: { taskConcurrency: 3, cancelGraceMs: 200 } });
        ownerId = (await client.rpc.call('createAgent', { projectId, name: 'Owner', role: '', profileId: 'shell' })).id;
      } else {
        // What the kill left: every acknowledged row, no task of before still running, no process of before.
        const tasks = await allPages((after) => client.rpc.call('listTasks', { projectId, ...(after ? { after } : {}) }).then((p) => ({ items: p.tasks, next: p.next })));
        const ids = new Set(tasks.map((task) => task.id));
        lostRows += [...acknowledged].filter((id) => !ids.has(id)).length;
        const fromBefore = started.splice(0);
        stuck += tasks.filter((task) => (task.state === 'running' || task.state === 'cancelling') && fromBefore.some((s) => s.pid === task.pid)).length;
        for (const process of fromBefore) {
          try {
            await waitFor(() => !isSameProcessAlive(process.pid, process.pidStartTime), `process ${process.pid} gone`, 5_000);
          } catch {
            orphans++;
            signalProcessGroup(process.pid, 'SIGKILL');
          }
        }
      }
      if (round === ROUNDS) {
        client.close();
        break;
      }

      // The floods: tasks of every kind, a cancel, and malformed frames on the WebSocket.
      const attacker = await rawWebSocketClient(serve.url);
      let flooding = true;
      const malformed = (async () => {
        for (let i = 0; flooding && attacker.isOpen() && i < MALFORMED_PER_ROUND; i++) {
          attacker.send(i % 2 ? '{"t":"req","id":' : `${'['.repeat(100 + i)}${']'.repeat(100 + i)}`);
          malformedSent++;
          if (i % 20 === 19) await new Promise((resolve) => setTimeout(resolve, 1));
        }
      })();
      for (let n = 0; n < TASKS_PER_ROUND; n++) {
        const task = await client.rpc.call('createTask', { projectId, command: (COMMANDS[n % COMMANDS.length] as (n: number) => string)(n), ownerAgentId: ownerId, label: `round-${round}-${n}` });
        acknowledged.add(task.id);
        if (n === TASKS_PER_ROUND / 2) {
          const running = (await client.rpc.call('listTasks', { projectId, states: ['running'] })).tasks[0];
          if (running) await client.rpc.call('cancelTask', { taskId: running.id });
        }
      }
      const running = (await client.rpc.call('listTasks', { projectId, states: ['running', 'cancelling'] })).tasks;
      started.push(...running.flatMap((task) => (task.pid === null ? [] : [{ pid: task.pid, pidStartTime: task.pidStartTime }])));
      await serve.stop('SIGKILL');
      flooding = false;
      await malformed;
      attacker.close();
      client.close();
    }

    // Settle: end what is still active, then every task has ended, and posted its result once.
    const client = await connect();
    for (const task of (await client.rpc.call('listTasks', { projectId, states: ['queued', 'running'] })).tasks) {
      await client.rpc.call('cancelTask', { taskId: task.id }).catch(() => undefined);
    }
    let tasks: Task[] = [];
    try {
      await waitFor(async () => {
        tasks = await allPages((after) => client.rpc.call('listTasks', { projectId, ...(after ? { after } : {}) }).then((p) => ({ items: p.tasks, next: p.next })));
        return tasks.every((task) => isTaskFinished(task.state));
      }, 'every task to end', 30_000);
    } catch {
      stuck += tasks.filter((task) => !isTaskFinished(task.state)).length;
    }
    const messages = await waitFor(async () => {
      const all = await allPages<InboxMessage>((after) => client.rpc.call('listInbox', { agentId: ownerId, unreadOnly: false, ...(after ? { after } : {}) }).then((p) => ({ items: p.messages, next: p.next })));
      return all.filter((m) => m.kind === 'task-result').length >= tasks.length && all;
    }, 'a result for every task');
    const resultsPerTask = new Map<string, number>();
    for (const message of messages) if (message.taskId) resultsPerTask.set(message.taskId, (resultsPerTask.get(message.taskId) ?? 0) + 1);
    const duplicateResults = [...resultsPerTask.values()].filter((count) => count > 1).length;
    const missingResults = tasks.filter((task) => !resultsPerTask.has(task.id)).length;
    client.close();
    await serve?.stop();
    serve = undefined;

    const integrity: string[] = [];
    for (const file of [path.join(dataDir, 'app.sqlite'), path.join(dataDir, 'projects', projectId, 'state.sqlite')]) {
      const db = new Database(file, { readonly: true });
      integrity.push(db.pragma('integrity_check', { simple: true }) as string);
      db.close();
    }
    const entries = fs.readdirSync(dataDir, { recursive: true, withFileTypes: true });
    const widerFiles = entries.filter((entry) => !entry.isDirectory() && (fs.lstatSync(path.join(entry.parentPath, entry.name)).mode & 0o077) !== 0).length;
    const widerFolders = entries.filter((entry) => entry.isDirectory() && (fs.statSync(path.join(entry.parentPath, entry.name)).mode & 0o077) !== 0).length;

    Object.assign(figures, {
      rounds: ROUNDS,
      'tasks acknowledged': acknowledged.size,
      'malformed frames sent meanwhile': malformedSent,
      'rows lost': lostRows,
      'duplicate results': duplicateResults,
      'missing results': missingResults,
      'stuck tasks': stuck,
      orphans,
      'files wider than 0600': widerFiles,
      'folders wider than 0700': widerFolders + ((fs.statSync(dataDir).mode & 0o077) !== 0 ? 1 : 0),
    });
    expect({ lostRows, duplicateResults, missingResults, stuck, orphans, widerFiles, widerFolders }).toEqual({
      lostRows: 0,
      duplicateResults: 0,
      missingResults: 0,
      stuck: 0,
      orphans: 0,
      widerFiles: 0,
      widerFolders: 0,
    });
    expect(tasks).toHaveLength(acknowledged.size);
    expect(integrity).toEqual(['ok', 'ok']);
  }, 300_000);
});
