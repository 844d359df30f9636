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

  it('refuses a file that is not a database with a clear error and leaves it untouched', () => {
    const file = tempFile();
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const garbage = Buffer.alloc(8192, 'not a database ');
    fs.writeFileSync(file, garbage);
    expect(() => openDatabase(file, { migrations: MIGRATIONS, description: 'test db' })).toThrow(/damaged or not a SQLite database.*left it untouched/);
    expect(fs.readFileSync(file).equals(garbage)).toBe(true);
  });

  it('refuses a schema newer than this build knows', () => {
    const file = tempFile();
    openDatabase(file, { migrations: MIGRATIONS, description: 'test db' }).close();
    expect(() => openDatabase(file, { migrations: MIGRATIONS.slice(0, 1), description: 'test db' })).toThrow(/newer Drover/);
  });
});
