import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DroverEvent } from '../../../shared/events';
import { makeTempDir, removeDir } from '../../../test-support/tempDir';
import { EventBus } from '../events/eventBus';
import { APP_MIGRATIONS } from '../storage/appSchema';
import { openDatabase, type SqliteDatabase } from '../storage/sqlite';
import { ProjectRegistry } from './projectRegistry';
import { ProjectTable } from '../storage/projectTable';

describe('ProjectRegistry', () => {
  let dir: string;
  let db: SqliteDatabase;
  let events: DroverEvent[];
  let registry: ProjectRegistry;

  const open = () => {
    db = openDatabase(path.join(dir, 'data', 'app.sqlite'), { migrations: APP_MIGRATIONS, description: 'app database' });
    const bus = new EventBus();
    bus.onEvent((event) => events.push(event));
    registry = new ProjectRegistry(new ProjectTable(db), bus);
  };

  beforeEach(() => {
    dir = makeTempDir();
    fs.mkdirSync(path.join(dir, 'work', 'app'), { recursive: true });
    events = [];
    open();
  });
  afterEach(() => {
    db.close();
    removeDir(dir);
  });

  it('adds a folder canonicalised, named after it, and announces it', () => {
    fs.symlinkSync(path.join(dir, 'work', 'app'), path.join(dir, 'link'));
    const project = registry.add(path.join(dir, 'link', '.'));
    expect(project.path).toBe(path.join(dir, 'work', 'app'));
    expect(project.name).toBe('app');
    expect(events).toEqual([{ name: 'projectChanged', seq: project.seq, projectId: project.id, project }]);
  });

  it('returns the same project when the same folder is added twice, by any spelling', () => {
    const first = registry.add(path.join(dir, 'work', 'app'));
    const second = registry.add(path.join(dir, 'work', '..', 'work', 'app') + '/');
    expect(second).toEqual(first);
    expect(registry.list().projects).toHaveLength(1);
    expect(events).toHaveLength(1);
  });

  it('refuses a path that does not exist or is not a folder', () => {
    expect(() => registry.add(path.join(dir, 'missing'))).toThrow(/No such folder/);
    fs.writeFileSync(path.join(dir, 'file.txt'), 'x');
    expect(() => registry.add(path.join(dir, 'file.txt'))).toThrow(/Not a folder/);
    expect(registry.list().projects).toEqual([]);
  });

  it('renames and removes with increasing seq; removing never touches the folder', () => {
    const project = registry.add(path.join(dir, 'work', 'app'));
    const renamed = registry.rename(project.id, '  Backend  ');
    expect(renamed.name).toBe('Backend');
    expect(renamed.seq).toBeGreaterThan(project.seq);
    registry.remove(project.id);
    expect(registry.list().projects).toEqual([]);
    expect(fs.existsSync(path.join(dir, 'work', 'app'))).toBe(true);
    const seqs = events.map((event) => event.seq);
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    expect(events.at(-1)).toMatchObject({ name: 'projectChanged', projectId: project.id, project: null });
    expect(() => registry.rename(project.id, 'x')).toThrow(/No project with id/);
  });

  it('keeps projects and a monotonic seq across reopening', () => {
    const project = registry.add(path.join(dir, 'work', 'app'));
    registry.remove(registry.add(path.join(dir, 'work')).id);
    const before = registry.list().seq;
    db.close();
    open();
    expect(registry.list().projects).toEqual([project]);
    expect(registry.list().seq).toBe(before);
    expect(registry.rename(project.id, 'again').seq).toBeGreaterThan(before);
  });

  it('finds the deepest project holding a path', () => {
    const outer = registry.add(path.join(dir, 'work'));
    const inner = registry.add(path.join(dir, 'work', 'app'));
    fs.mkdirSync(path.join(dir, 'work', 'app', 'src'));
    expect(registry.findContaining(path.join(dir, 'work', 'app', 'src')).id).toBe(inner.id);
    expect(registry.findContaining(path.join(dir, 'work')).id).toBe(outer.id);
    expect(() => registry.findContaining(dir)).toThrow(/No registered project holds/);
  });
});
