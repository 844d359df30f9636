import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { METHODS } from '../../../shared/contract';
import { makeTempDir, removeDir } from '../../../test-support/tempDir';
import { createCore, type Core } from '../compose';
import { nextRunAfter, parseCron } from './cronSchedule';

describe('editing an automation', () => {
  let dir: string;
  let core: Core;
  let projectId: string;

  beforeEach(async () => {
    dir = makeTempDir('drover-automation-edit-');
    const folder = path.join(dir, 'shop');
    fs.mkdirSync(folder);
    core = createCore({ dataDir: path.join(dir, 'data'), version: 'test', socketPath: '/unused' });
    projectId = (await core.api.addProject({ path: folder })).id;
  });
  afterEach(async () => {
    await core.close();
    removeDir(dir);
  });

  const addNightly = () =>
    core.api.addAutomation({ projectId, name: 'nightly', trigger: { kind: 'schedule', cron: '0 3 * * *', timeZone: 'Asia/Tokyo' }, action: { kind: 'task', command: 'echo nightly', cwd: null, owner: null } });

  it('changes the schedule in place: the same id, state and runs, its time zone kept, its next run worked out again', async () => {
    const added = await addNightly();
    const run = await core.api.runAutomation({ projectId, name: 'nightly' });
    await core.api.pauseAutomation({ projectId, name: 'nightly' });
    await core.api.resumeAutomation({ projectId, name: 'nightly' });
    const before = Date.now();

    const edited = await core.api.updateAutomation({ projectId, name: 'nightly', trigger: { kind: 'schedule', cron: '30 14 * * 1-5' } });

    expect(edited).toMatchObject({ id: added.id, enabled: true, createdAt: added.createdAt, dailyCap: added.dailyCap, action: added.action });
    expect(edited.trigger).toEqual({ kind: 'schedule', cron: '30 14 * * 1-5', timeZone: 'Asia/Tokyo' });
    const weekdaysAtHalfPastTwo = parseCron('30 14 * * 1-5', 'Asia/Tokyo');
    // The edit happened between `before` and now: its next run is the one after either.
    expect([nextRunAfter(weekdaysAtHalfPastTwo, before), nextRunAfter(weekdaysAtHalfPastTwo, Date.now())]).toContain(edited.nextRunAt);
    expect(edited.nextRunAt).not.toBe(added.nextRunAt);
    expect(await core.api.getAutomationHistory({ projectId, name: 'nightly' })).toEqual([expect.objectContaining({ id: run?.id, trigger: 'run now' })]);
    expect(await core.api.listAutomations({ projectId })).toEqual([edited]);
  });

  it('changes only what is given: the action, the daily cap and the catch-up window each alone', async () => {
    const added = await addNightly();
    await core.api.pauseAutomation({ projectId, name: 'nightly' });
    const action = { kind: 'task' as const, command: 'npm update', cwd: path.join(dir, 'shop'), owner: null };

    const edited = await core.api.updateAutomation({ projectId, name: 'nightly', action, dailyCap: 2 });
    expect(edited).toMatchObject({ id: added.id, trigger: added.trigger, action, dailyCap: 2, catchUpMs: added.catchUpMs, enabled: false, nextRunAt: null });
    expect(await core.api.updateAutomation({ projectId, name: 'nightly', catchUpMs: 60_000 })).toMatchObject({ action, dailyCap: 2, catchUpMs: 60_000 });
  });

  it('refuses what adding refuses, naming it, and leaves the rule as it was', async () => {
    const added = await addNightly();
    const edit = (change: Omit<Parameters<Core['api']['updateAutomation']>[0], 'projectId' | 'name'>) => core.api.updateAutomation({ projectId, name: 'nightly', ...change });

    await expect(edit({ trigger: { kind: 'schedule', cron: '0 25 * * *' } })).rejects.toThrow('The hour field "25" does not parse: 25 is outside 0-23.');
    // The command is checked against the new trigger: a schedule has no task to name.
    await core.api.updateAutomation({ projectId, name: 'nightly', action: { kind: 'task', command: 'echo {task.label}', cwd: null, owner: null }, trigger: { kind: 'task-ended', label: 'build', outcome: 'failed' } });
    await expect(edit({ trigger: { kind: 'schedule', cron: '@daily' } })).rejects.toThrow('The command names {task.label}, which a schedule trigger does not have');
    await expect(edit({ action: { kind: 'agent', profileId: 'no-such-cli', prompt: 'hi', base: null } })).rejects.toThrow('There is no profile no-such-cli (profiles: ');
    await expect(edit({ action: { kind: 'task', command: 'true', cwd: null, owner: 'Nobody' } })).rejects.toThrow('There is no agent Nobody');
    await expect(edit({ action: { kind: 'message', agent: 'nobody', text: 'hi' } })).rejects.toThrow('There is no agent nobody in project');
    await expect(edit({ trigger: { kind: 'issue-labelled', label: 'agent' }, action: { kind: 'task', command: 'echo {issue.title}', cwd: null, owner: null } })).rejects.toThrow('has no origin remote');
    await expect(core.api.updateAutomation({ projectId, name: 'weekly', dailyCap: 3 })).rejects.toThrow('There is no automation named weekly');

    const params = METHODS.updateAutomation.params;
    expect(params.safeParse({ projectId, name: 'nightly', trigger: { kind: 'check-failed', branch: 'main;reboot' } }).error?.message).toContain('no spaces or shell characters');
    expect(params.safeParse({ projectId, name: 'nightly', dailyCap: 0 }).success).toBe(false);

    const [stored] = await core.api.listAutomations({ projectId });
    expect(stored).toMatchObject({ id: added.id, trigger: { kind: 'task-ended', label: 'build', outcome: 'failed' }, action: { command: 'echo {task.label}' }, dailyCap: added.dailyCap });
  });
});
