import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_APP_SETTINGS } from '../../../shared/appSettings';
import { METHODS } from '../../../shared/contract';
import type { DroverEvent } from '../../../shared/events';
import { makeTempDir, removeDir } from '../../../test-support/tempDir';
import { createCore, type Core } from '../compose';
import { APP_MIGRATIONS } from '../storage/appSchema';
import { openDatabase } from '../storage/sqlite';

describe('app settings', () => {
  let dir: string;
  let dataDir: string;
  let core: Core | undefined;

  const start = (): Core => {
    core = createCore({ dataDir, version: 'test', socketPath: '/unused' });
    return core;
  };

  beforeEach(() => {
    dir = makeTempDir('drover-app-settings-');
    dataDir = path.join(dir, 'data');
  });
  afterEach(async () => {
    await core?.close();
    core = undefined;
    removeDir(dir);
  });

  it('start from the defaults, and a change is announced, kept and still there after a restart', async () => {
    let running = start();
    const events: DroverEvent[] = [];
    running.events.onEvent((event) => events.push(event));

    const initial = await running.api.getAppSettings({});
    expect(initial.settings).toEqual(DEFAULT_APP_SETTINGS);
    const updated = await running.api.updateAppSettings({ settings: { checkForUpdates: false } });
    expect(updated.settings.checkForUpdates).toBe(false);
    expect(updated.seq).toBeGreaterThan(initial.seq);
    expect(events).toEqual([{ name: 'appSettingsChanged', seq: updated.seq, settings: updated.settings }]);

    await running.close();
    running = start();
    expect(await running.api.getAppSettings({})).toEqual(updated);
  });

  it('share the app-wide seq with the project registry, so one snapshot orders both', async () => {
    const running = start();
    const first = await running.api.updateAppSettings({ settings: { checkForUpdates: false } });
    const project = await running.api.addProject({ path: dir });
    const second = await running.api.updateAppSettings({ settings: { checkForUpdates: true } });
    expect(project.seq).toBeGreaterThan(first.seq);
    expect(second.seq).toBeGreaterThan(project.seq);
    expect((await running.api.listProjects({})).seq).toBe(second.seq);
  });

  it('refuse, at the door, what is not a setting', () => {
    const params = METHODS.updateAppSettings.params;
    expect(params.safeParse({ settings: { checkForUpdates: false } }).success).toBe(true);
    expect(params.safeParse({ settings: { checkForUpdates: 'yes' } }).success).toBe(false);
    expect(params.safeParse({ settings: { colour: 'red' } }).success).toBe(false);
  });

  it('come to an app database from before they existed, keeping its projects, and skip a stored value that no longer fits', async () => {
    const before = openDatabase(path.join(dataDir, 'app.sqlite'), { migrations: APP_MIGRATIONS.slice(0, 2), description: 'app database' });
    before.prepare("INSERT INTO projects (id, name, path, created_at, seq) VALUES ('p-older1', 'older', ?, 1, 1)").run(dir);
    before.prepare("UPDATE app_meta SET value = 1 WHERE key = 'seq'").run();
    before.close();

    let running = start();
    expect((await running.api.listProjects({})).projects.map((project) => project.id)).toEqual(['p-older1']);
    expect((await running.api.getAppSettings({})).settings).toEqual(DEFAULT_APP_SETTINGS);
    await running.close();

    const db = openDatabase(path.join(dataDir, 'app.sqlite'), { migrations: APP_MIGRATIONS, description: 'app database' });
    db.prepare("INSERT INTO app_settings (key, value) VALUES ('checkForUpdates', '\"weekly\"'), ('retired', 'true')").run();
    db.close();
    running = start();
    expect((await running.api.getAppSettings({})).settings).toEqual(DEFAULT_APP_SETTINGS);
  });
});
