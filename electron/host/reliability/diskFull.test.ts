import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Project } from '../../../shared/entities/projects';
import type { Task } from '../../../shared/entities/tasks';
import { reportFigures } from '../../../test-support/reliabilityFigures';
import { makeTempDir, removeDir } from '../../../test-support/tempDir';
import { waitFor } from '../../../test-support/waitFor';
import { startHost, type DroverHost } from '../host';

const isRoot = process.getuid?.() === 0;
const TMPFS_BYTES = 3 * 1024 * 1024;

/** Fills what is left of the disk holding `dir`; returns the filler file. */
function fillDisk(dir: string): string {
  const filler = path.join(dir, 'filler');
  const fd = fs.openSync(filler, 'a');
  const block = Buffer.alloc(64 * 1024, 1);
  try {
    for (let size = block.length; size >= 1; size = Math.floor(size / 2)) {
      for (;;) {
        try {
          fs.writeSync(fd, block, 0, size);
        } catch {
          break;
        }
      }
    }
  } finally {
    fs.closeSync(fd);
  }
  return filler;
}

/** The task as its database row says, read from the file (not through Drover). */
function storedTask(file: string, taskId: string): { state: string; exit_code: number | null; reason: string | null } | undefined {
  const db = new Database(file, { readonly: true });
  try {
    return db.prepare<[string], { state: string; exit_code: number | null; reason: string | null }>('SELECT state, exit_code, reason FROM tasks WHERE id = ?').get(taskId);
  } finally {
    db.close();
  }
}

describe('a full disk at the end of a task', () => {
  let dir: string;
  let mount: string;
  let host: DroverHost | undefined;
  let mounted = false;

  beforeEach(() => {
    dir = makeTempDir();
    mount = path.join(dir, 'small-disk');
    fs.mkdirSync(mount);
    fs.mkdirSync(path.join(dir, 'repo'));
  });
  afterEach(async () => {
    await host?.close();
    host = undefined;
    if (mounted) execFileSync('umount', [mount]);
    mounted = false;
    removeDir(dir);
  });

  it('keeps each end in memory and shows it, saves it once there is space, and the queue resumes on its own', async (context) => {
    if (!isRoot) {
      console.log('[reliability] full disk: SKIPPED — mounting a small tmpfs needs root (CI runs as root)');
      context.skip('mounting a small tmpfs needs root (CI runs as root)');
      return;
    }
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${TMPFS_BYTES},mode=0700`, 'tmpfs', mount]);
    mounted = true;
    const dataDir = path.join(mount, 'data');
    const logged: string[] = [];
    host = await startHost({ dataDir, version: 'test', settingsDefaults: { taskConcurrency: 2 }, log: (line) => logged.push(line) });
    const api = host.core.api;
    const project: Project = await api.addProject({ path: path.join(dir, 'repo') });
    const owner = await api.createAgent({ projectId: project.id, name: 'Owner', role: '', profileId: 'shell' });
    const gate = path.join(dir, 'gate');
    // Two tasks that print ~1.8 MB each once the gate opens, and end with their own statuses.
    const printer = (status: number) => `while [ ! -e ${gate} ]; do sleep 0.05; done; head -c 1800000 /dev/zero | tr '\\0' x; exit ${status}`;
    const ok = await api.createTask({ projectId: project.id, command: printer(0), ownerAgentId: owner.id, label: 'prints-ok' });
    const failing = await api.createTask({ projectId: project.id, command: printer(3), ownerAgentId: owner.id, label: 'prints-fails' });
    const queued = await Promise.all([1, 2].map((n) => api.createTask({ projectId: project.id, command: `echo queued-${n}`, label: `queued-${n}` })));
    await waitFor(async () => (await api.getTask({ taskId: failing.id })).state === 'running', 'both printers running');

    const filler = fillDisk(mount);
    fs.writeFileSync(gate, '');
    const ended = (taskId: string) => waitFor(async () => {
      const task: Task = await api.getTask({ taskId });
      return ['succeeded', 'failed'].includes(task.state) && task;
    }, `task ${taskId} to end`, 30_000);
    // The ends are known, with their real exit statuses, while the disk refuses to store them.
    expect(await ended(ok.id)).toMatchObject({ state: 'succeeded', exitCode: 0, reason: expect.stringContaining('output not fully saved') });
    expect(await ended(failing.id)).toMatchObject({ state: 'failed', exitCode: 3 });
    const stateFile = path.join(dataDir, 'projects', project.id, 'state.sqlite');
    const unsaved = [ok.id, failing.id].filter((taskId) => storedTask(stateFile, taskId)?.state === 'running');
    const unsavedWhileFull = unsaved.length;
    // A page loaded now (a reload) shows the same truth as the events did.
    const snapshot = await api.getWorkState({ projectId: project.id });
    for (const taskId of unsaved) expect(snapshot.tasks.find((task) => task.id === taskId)?.state).toMatch(/^(succeeded|failed)$/);
    // Cancel finds an ended task, not one to leave in `cancelling`.
    await expect(api.cancelTask({ taskId: failing.id })).rejects.toThrow(/has already ended/);
    expect((await api.getTask({ taskId: queued[0]?.id as string })).state).toBe('queued');

    fs.rmSync(filler);
    // Nobody asks for anything: the saved ends and the queue follow on their own.
    await waitFor(() => storedTask(stateFile, failing.id)?.state === 'failed' && storedTask(stateFile, ok.id)?.state === 'succeeded', 'the ends saved');
    expect(storedTask(stateFile, failing.id)).toMatchObject({ exit_code: 3 });
    for (const task of queued) expect(await ended(task.id)).toMatchObject({ state: 'succeeded' });
    await waitFor(async () => (await api.listInbox({ agentId: owner.id, unreadOnly: false })).messages.length === 2, 'both results in the owner inbox');

    await host.close();
    host = await startHost({ dataDir, version: 'test' });
    expect((await host.core.api.getTask({ taskId: failing.id })).exitCode).toBe(3);
    const results = (await host.core.api.listInbox({ agentId: owner.id, unreadOnly: false })).messages.map((m) => m.taskId).sort();
    expect(results).toEqual([ok.id, failing.id].sort());
    await host.close();
    host = undefined;
    for (const file of [path.join(dataDir, 'app.sqlite'), stateFile]) {
      const db = new Database(file, { readonly: true });
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
      db.close();
    }
    reportFigures('full disk', {
      'tmpfs bytes': TMPFS_BYTES,
      'task ends refused by the disk': unsavedWhileFull,
      'task ends lost': 0,
      'queued tasks started once space returned': queued.length,
    });
    expect(logged.some((line) => line.includes('could not be saved'))).toBe(true);
  }, 90_000);
});
