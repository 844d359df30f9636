import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Project } from '../../../shared/entities/projects';
import type { DroverEvent } from '../../../shared/events';
import { makeTempDir, removeDir } from '../../../test-support/tempDir';
import { waitFor } from '../../../test-support/waitFor';
import { createCore, type Core } from '../compose';
import { isProcessGroupAlive } from '../process/processGroup';

describe('TaskService (real PTYs)', () => {
  let dir: string;
  let core: Core;
  let project: Project;
  let events: DroverEvent[];

  const start = (settings: Parameters<typeof createCore>[0]['settingsDefaults'] = {}) => {
    core = createCore({ dataDir: path.join(dir, 'data'), version: 'test', socketPath: '/unused', settingsDefaults: settings });
    core.events.onEvent((event) => events.push(event));
  };
  const taskEvents = (taskId: string) =>
    events.flatMap((event) => (event.name === 'backgroundTaskChanged' && event.task.id === taskId ? [event.task.state] : []));
  const ended = (taskId: string) =>
    waitFor(async () => {
      const task = (await core.api.getTask({ taskId }));
      return ['succeeded', 'failed', 'cancelled', 'interrupted'].includes(task.state) && task;
    }, `task ${taskId} to end`);
  const run = (command: string, extra: { label?: string; cwd?: string } = {}) => core.api.createTask({ projectId: project.id, command, ...extra });

  beforeEach(async () => {
    dir = makeTempDir();
    fs.mkdirSync(path.join(dir, 'repo', 'src'), { recursive: true });
    events = [];
    start({ cancelGraceMs: 300 });
    project = (await core.api.addProject({ path: path.join(dir, 'repo') }));
  });
  afterEach(async () => {
    await core.close();
    removeDir(dir);
  });

  it('runs a command in the project, logs its output and records success', async () => {
    const task = await run('echo "hello from $PWD"; printf "\\033[32mgreen\\033[0m\\n"', { label: 'greet' });
    const done = await ended(task.id);
    expect(done).toMatchObject({ state: 'succeeded', exitCode: 0, signal: null, label: 'greet', attempt: 1, cwd: path.join(dir, 'repo') });
    expect(done.pid).toBeGreaterThan(0);
    expect(done.pidStartTime).toMatch(/^\d+$/);
    const log = fs.readFileSync(done.logPath, 'utf8');
    expect(log).toContain(`hello from ${path.join(dir, 'repo')}`);
    expect(log).toContain('\u001b[32mgreen');
    expect(done.outputBytes).toBe(fs.statSync(done.logPath).size);
    expect(taskEvents(task.id)).toEqual(['queued', 'running', 'succeeded']);
    const seqs = events.map((event) => event.seq).filter((_, i) => events[i]?.name === 'backgroundTaskChanged');
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
  });

  it('ends a task that leaves its terminal in raw mode', async () => {
    const done = await ended((await run('stty raw -echo; echo raw')).id);
    expect(done).toMatchObject({ state: 'succeeded', exitCode: 0 });
  });

  it('records a failure with its exit code', async () => {
    const done = await ended((await run('echo oops >&2; exit 7')).id);
    expect(done).toMatchObject({ state: 'failed', exitCode: 7, reason: 'exit code 7' });
  });

  it('runs in a subfolder and refuses a cwd outside the project', async () => {
    const done = await ended((await run('pwd', { cwd: 'src' })).id);
    expect(fs.readFileSync(done.logPath, 'utf8')).toContain(path.join(dir, 'repo', 'src'));
    await expect(run('pwd', { cwd: dir })).rejects.toThrow(/outside the project/);
    await expect(run('pwd', { cwd: '../..' })).rejects.toThrow(/outside the project/);
    await expect(run('pwd', { cwd: 'nope' })).rejects.toThrow(/No such folder/);
    // Outside and missing: refused as outside (not as a missing folder), saying where relative starts.
    await expect(run('pwd', { cwd: '../../etc-nowhere' })).rejects.toThrow(`is outside the project (${path.join(dir, 'repo')}); tasks run inside their project. A relative folder is taken from ${path.join(dir, 'repo')}.`);
  });

  it('queues beyond the concurrency limit and starts in FIFO order', async () => {
    await core.api.updateProjectSettings({ projectId: project.id, settings: { taskConcurrency: 1 } });
    const marker = path.join(dir, 'order.txt');
    const first = await run(`sleep 0.3; echo first >> ${marker}`);
    const second = await run(`echo second >> ${marker}`);
    const third = await run(`echo third >> ${marker}`);
    expect(await core.api.getTask({ taskId: second.id })).toMatchObject({ state: 'queued' });
    expect(await core.api.getTask({ taskId: third.id })).toMatchObject({ state: 'queued' });
    await ended(third.id);
    await ended(first.id);
    expect(fs.readFileSync(marker, 'utf8').trim().split('\n')).toEqual(['first', 'second', 'third']);
  });

  it('cancels a queued task without running it', async () => {
    await core.api.updateProjectSettings({ projectId: project.id, settings: { taskConcurrency: 1 } });
    const blocker = await run('sleep 30');
    const waiting = await run(`touch ${path.join(dir, 'ran')}`);
    expect(await core.api.cancelTask({ taskId: waiting.id })).toMatchObject({ state: 'cancelled' });
    await core.api.cancelTask({ taskId: blocker.id });
    await ended(blocker.id);
    expect(fs.existsSync(path.join(dir, 'ran'))).toBe(false);
    expect(taskEvents(waiting.id)).toEqual(['queued', 'cancelled']);
  });

  it('cancels a running task by signalling its whole process group', async () => {
    const task = await run('sleep 60 & sleep 60; wait');
    const running = await waitFor(async () => {
      const t = (await core.api.getTask({ taskId: task.id }));
      return t.state === 'running' && t;
    }, 'task to run');
    expect(await core.api.cancelTask({ taskId: task.id })).toMatchObject({ state: 'cancelling' });
    const done = await ended(task.id);
    expect(done.state).toBe('cancelled');
    await waitFor(() => !isProcessGroupAlive(running.pid as number), 'process group to be gone');
    expect(taskEvents(task.id)).toEqual(['queued', 'running', 'cancelling', 'cancelled']);
  });

  it('kills a task that ignores SIGTERM after the grace period', async () => {
    const task = await run(`trap '' TERM; echo ready; while true; do sleep 0.05; done`);
    await waitFor(() => fs.existsSync(task.logPath) && fs.readFileSync(task.logPath, 'utf8').includes('ready'), 'trap to be set');
    await core.api.cancelTask({ taskId: task.id });
    const done = await ended(task.id);
    expect(done).toMatchObject({ state: 'cancelled', signal: 'SIGKILL' });
  });

  it('retries a finished task as a new attempt and refuses to retry an active one', async () => {
    const failed = await ended((await run('exit 1', { label: 'flaky' })).id);
    const retried = (await core.api.retryTask({ taskId: failed.id }));
    expect(retried).toMatchObject({ retryOf: failed.id, attempt: 2, command: 'exit 1', label: 'flaky' });
    expect(retried.id).not.toBe(failed.id);
    const again = (await core.api.retryTask({ taskId: (await ended(retried.id)).id }));
    expect(again.attempt).toBe(3);
    const active = await run('sleep 30');
    await expect(core.api.retryTask({ taskId: active.id })).rejects.toThrow(/only a finished task can be retried/);
    await expect(core.api.cancelTask({ taskId: failed.id })).rejects.toThrow(/already ended/);
    await expect(core.api.getTask({ taskId: 't-doesnotexist' })).rejects.toThrow(/No task with id/);
  });

  it('cuts the log at the output cap and says so in the log', async () => {
    await core.api.updateProjectSettings({ projectId: project.id, settings: { taskOutputCapBytes: 4096 } });
    const done = await ended((await run('head -c 20000 /dev/zero | tr "\\0" x; echo; echo after')).id);
    const log = fs.readFileSync(done.logPath, 'utf8');
    expect(done.state).toBe('succeeded');
    expect(log.startsWith('x'.repeat(4096))).toBe(true);
    expect(log).toMatch(/output cut here at 4096 bytes/);
    expect(log).not.toContain('after');
  });

  it('fails clearly when the working folder vanished before the task started', async () => {
    await core.api.updateProjectSettings({ projectId: project.id, settings: { taskConcurrency: 1 } });
    const blocker = await run('sleep 0.3');
    const doomed = await run('echo never', { cwd: 'src' });
    fs.rmSync(path.join(dir, 'repo', 'src'), { recursive: true });
    await ended(blocker.id);
    const done = await ended(doomed.id);
    expect(done).toMatchObject({ state: 'failed' });
    expect(done.reason).toMatch(/spawn-failed: working folder .* no longer exists/);
  });

  it('reads the tail of a log and continues from an offset', async () => {
    const done = await ended((await run('seq 1 2000')).id);
    const tail = await core.api.readTaskOutput({ taskId: done.id, tailBytes: 10 }) as { data: string; nextOffset: number; size: number };
    expect(tail.data.trim().split(/\r?\n/).at(-1)).toBe('2000');
    expect(tail.nextOffset).toBe(tail.size);
    const head = await core.api.readTaskOutput({ taskId: done.id, maxBytes: 5 }) as { data: string; nextOffset: number };
    expect(head.data).toBe('1\r\n2\r');
    const rest = (await core.api.readTaskOutput({ taskId: done.id, offset: head.nextOffset, maxBytes: 3 }));
    expect(rest.data).toBe('\n3\r');
  });

  it('removing a project stops its tasks and starts none of the queued ones', async () => {
    await core.api.updateProjectSettings({ projectId: project.id, settings: { taskConcurrency: 1 } });
    const blocker = await run('sleep 30');
    const queued = await run('echo never');
    const running = await waitFor(async () => {
      const task = (await core.api.getTask({ taskId: blocker.id }));
      return task.state === 'running' && task;
    }, 'the blocker to run');
    await core.api.removeProject({ projectId: project.id });
    expect(taskEvents(queued.id)).toEqual(['queued']);
    await waitFor(() => !isProcessGroupAlive(running.pid as number), 'the blocker group to be gone');
    await expect(core.api.getTask({ taskId: queued.id })).rejects.toThrow(/No task with id/);
    project = (await core.api.addProject({ path: path.join(dir, 'repo') }));
  });

  it('stops running tasks on shutdown and records them as interrupted', async () => {
    const task = await run('sleep 60');
    await waitFor(async () => (await core.api.getTask({ taskId: task.id })).state === 'running', 'task to run');
    await core.close();
    start();
    expect(await core.api.getTask({ taskId: task.id })).toMatchObject({ state: 'interrupted', reason: 'app-quit' });
  });

  it('keeps queued tasks queued across a restart and starts them', async () => {
    await core.api.updateProjectSettings({ projectId: project.id, settings: { taskConcurrency: 1 } });
    const first = await run('sleep 60');
    const queued = await run('echo later');
    await core.close();
    start();
    expect(await core.api.getTask({ taskId: queued.id })).toMatchObject({ state: 'queued' });
    expect(await core.api.getTask({ taskId: first.id })).toMatchObject({ state: 'interrupted' });
    core.startWork();
    expect((await ended(queued.id)).state).toBe('succeeded');
  });
});
