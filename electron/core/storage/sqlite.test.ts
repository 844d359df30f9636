import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeTempDir, removeDir } from '../../../test-support/tempDir';
import { openDatabase } from './sqlite';

const MIGRATIONS = ['CREATE TABLE a (x INTEGER);', 'CREATE TABLE b (y TEXT);'];

describe('openDatabase', () => {
  const dirs: string[] = [];
  const tempFile = () => {
    const dir = makeTempDir();
    dirs.push(dir);
    return path.join(dir, 'nested', 'db.sqlite');
  };
  afterEach(() => dirs.splice(0).forEach(removeDir));

  it('creates the folder, uses WAL and migrates to the latest user_version', () => {
    const file = tempFile();
    const db = openDatabase(file, { migrations: MIGRATIONS, description: 'test db' });
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    expect(db.pragma('user_version', { simple: true })).toBe(2);
    db.prepare('INSERT INTO b (y) VALUES (?)').run('kept');
    db.close();
  });

  it('applies only the migrations a file has not seen, keeping its rows', () => {
    const file = tempFile();
    openDatabase(file, { migrations: MIGRATIONS.slice(0, 1), description: 'test db' }).prepare('INSERT INTO a VALUES (7)').run();
    const db = openDatabase(file, { migrations: MIGRATIONS, description: 'test db' });
    expect(db.prepare('SELECT x FROM a').get()).toEqual({ x: 7 });
    expect(db.pragma('user_version', { simple: true })).toBe(2);
    db.close();
  });

  it('refuses a file that is not a database with a clear error naming it, and leaves it untouched', () => {
    const file = tempFile();
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const garbage = Buffer.alloc(8192, 'not a database ');
    fs.writeFileSync(file, garbage);
    expect(() => openDatabase(file, { migrations: MIGRATIONS, description: 'test db' })).toThrow(`The test db at ${file} is damaged or not a SQLite database`);
    expect(fs.readFileSync(file).equals(garbage)).toBe(true);
  });

  it('refuses a schema newer than this build knows', () => {
    const file = tempFile();
    openDatabase(file, { migrations: MIGRATIONS, description: 'test db' }).close();
    expect(() => openDatabase(file, { migrations: MIGRATIONS.slice(0, 1), description: 'test db' })).toThrow(/newer Drover/);
  });
});

describe('openDatabase: files', () => {
  const dirs: string[] = [];
  const tempFile = () => {
    const dir = makeTempDir();
    dirs.push(dir);
    return path.join(dir, 'nested', 'db.sqlite');
  };
  const modeOf = (file: string) => fs.statSync(file).mode & 0o777;
  afterEach(() => dirs.splice(0).forEach(removeDir));

  it('makes a new database owner-only, its folder, WAL and shared-memory files too, and leaves no half-made file', () => {
    const file = tempFile();
    const db = openDatabase(file, { migrations: MIGRATIONS, description: 'test db' });
    db.prepare('INSERT INTO a VALUES (1)').run();
    expect(modeOf(path.dirname(file))).toBe(0o700);
    for (const suffix of ['', '-wal', '-shm']) expect(modeOf(file + suffix)).toBe(0o600);
    expect(fs.readdirSync(path.dirname(file)).sort()).toEqual(['db.sqlite', 'db.sqlite-shm', 'db.sqlite-wal']);
    db.close();
  });

  it('tightens an existing database that others could read', () => {
    const file = tempFile();
    openDatabase(file, { migrations: MIGRATIONS, description: 'test db' }).close();
    fs.chmodSync(file, 0o644);
    openDatabase(file, { migrations: MIGRATIONS, description: 'test db' }).close();
    expect(modeOf(file)).toBe(0o600);
  });

  it('reports a missing or empty file it may not create as missing data, naming it, and writes nothing', () => {
    const file = tempFile();
    const options = { migrations: MIGRATIONS, description: 'work state of project p-test', create: false, whenMissing: 'restore it.' };
    expect(() => openDatabase(file, options)).toThrow(`The work state of project p-test at ${file} is missing. Drover did not recreate it: restore it.`);
    expect(fs.existsSync(file)).toBe(false);
    fs.writeFileSync(file, '');
    expect(() => openDatabase(file, options)).toThrow(/is empty \(0 bytes\)\. Drover did not recreate it and left the file as it is/);
    expect(fs.statSync(file).size).toBe(0);
  });

  it('moves aside a write-ahead log whose database is gone, so it is never replayed into a new one', () => {
    const file = tempFile();
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(`${file}-wal`, 'left by a database that was deleted');
    openDatabase(file, { migrations: MIGRATIONS, description: 'test db' }).close();
    expect(fs.readdirSync(path.dirname(file)).filter((name) => name.includes('-wal.orphaned-'))).toHaveLength(1);
  });
});
