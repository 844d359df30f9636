import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_APP_SETTINGS } from '../../../shared/appSettings';
import type { DroverEvent } from '../../../shared/events';
import { makeTempDir, removeDir } from '../../../test-support/tempDir';
import { startHost, type DroverHost } from '../../host/host';
import { APP_MIGRATIONS } from '../storage/appSchema';
import { openDatabase } from '../storage/sqlite';

describe('app settings', () => {
  let dir: string;
  let dataDir: string;
  let host: DroverHost | undefined;

  const start = async () => {
    host = await startHost({ dataDir, version: 'test' });
    return host;
  };

  beforeEach(() => {
    dir = makeTempDir('drover-app-settings-');
    dataDir = path.join(dir, 'data');
  });
  afterEach(async () => {
    await host?.close();
    host = undefined;
    removeDir(dir);
  });

  it('start from the defaults, and a change is announced, kept and still there after a restart', async () => {
    let running = await start();
    const events: DroverEvent[] = [];
    running.core.events.onEvent((event) => events.push(event));

    const initial = await running.core.api.getAppSettings({});
    expect(initial.settings).toEqual(DEFAULT_APP_SETTINGS);
    const updated = await running.core.api.updateAppSettings({ settings: { checkForUpdates: false } });
    expect(updated.settings.checkForUpdates).toBe(false);
    expect(updated.seq).toBeGreaterThan(initial.seq);
    expect(events).toEqual([{ name: 'appSettingsChanged', seq: updated.seq, settings: { checkForUpdates: false } }]);

    await running.close();
    running = await start();
    expect(await running.core.api.getAppSettings({})).toEqual(updated);
  });

  it('share the app-wide seq with the project registry, so one snapshot orders both', async () => {
    const running = await start();
    const first = await running.core.api.updateAppSettings({ settings: { checkForUpdates: false } });
    const project = await running.core.api.addProject({ path: dir });
    const second = await running.core.api.updateAppSettings({ settings: { checkForUpdates: true } });
    expect(project.seq).toBeGreaterThan(first.seq);
    expect(second.seq).toBeGreaterThan(project.seq);
    expect((await running.core.api.listProjects({})).seq).toBe(second.seq);
  });

  it('refuse what is not a setting, and change nothing', async () => {
    const running = await start();
    const connection = running.openConnection(() => {});
    const reply = await connection.handle({ t: 'req', id: 1, method: 'updateAppSettings', params: { settings: { checkForUpdates: 'yes' } } });
    expect(reply).toMatchObject({ ok: false, error: { code: 'bad-request', message: expect.stringContaining('checkForUpdates') } });
    const unknown = await connection.handle({ t: 'req', id: 2, method: 'updateAppSettings', params: { settings: { colour: 'red' } } });
    expect(unknown).toMatchObject({ ok: false, error: { code: 'bad-request' } });
    connection.close();
    expect((await running.core.api.getAppSettings({})).settings).toEqual(DEFAULT_APP_SETTINGS);
  });

  it('come to an app database from before they existed, keeping its projects, and skip a stored value that no longer fits', async () => {
    const before = openDatabase(path.join(dataDir, 'app.sqlite'), { migrations: APP_MIGRATIONS.slice(0, 2), description: 'app database' });
    before.prepare("INSERT INTO projects (id, name, path, created_at, seq) VALUES ('p-older1', 'older', ?, 1, 1)").run(dir);
    before.prepare("UPDATE app_meta SET value = 1 WHERE key = 'seq'").run();
    before.close();

    let running = await start();
    expect((await running.core.api.listProjects({})).projects.map((project) => project.id)).toEqual(['p-older1']);
    expect((await running.core.api.getAppSettings({})).settings).toEqual(DEFAULT_APP_SETTINGS);
    await running.close();

    const db = openDatabase(path.join(dataDir, 'app.sqlite'), { migrations: APP_MIGRATIONS, description: 'app database' });
    db.prepare("INSERT INTO app_settings (key, value) VALUES ('checkForUpdates', '\"weekly\"'), ('retired', 'true')").run();
    db.close();
    running = await start();
    expect((await running.core.api.getAppSettings({})).settings).toEqual(DEFAULT_APP_SETTINGS);
  });
});
