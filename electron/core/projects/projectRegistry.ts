import fs from 'node:fs';
import path from 'node:path';
import type { Project, ProjectList } from '../../../shared/entities';
import { fail } from '../errors';
import type { EventBus } from '../events/eventBus';
import { newId } from '../ids';
import type { SqliteDatabase } from '../storage/sqlite';

interface ProjectRow {
  id: string;
  name: string;
  path: string;
  created_at: number;
  seq: number;
}

function toProject(row: ProjectRow): Project {
  return { id: row.id, name: row.name, path: row.path, createdAt: row.created_at, seq: row.seq };
}

/** Resolves a folder a person named to its canonical absolute path, or explains why it can't be a project. */
export function canonicalFolder(folder: string): string {
  const absolute = path.resolve(folder);
  let stat: fs.Stats;
  try {
    stat = fs.statSync(absolute);
  } catch {
    fail('invalid-path', `No such folder: ${absolute}`);
  }
  if (!stat.isDirectory()) fail('invalid-path', `Not a folder: ${absolute}`);
  return fs.realpathSync(absolute);
}

/** True when `candidate` is `root` or lies below it (both canonical). */
export function isInside(root: string, candidate: string): boolean {
  const relative = path.relative(root, candidate);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}

/**
 * The registry of project folders in the app database. Removing a project forgets it; the folder
 * itself is never touched.
 */
export class ProjectRegistry {
  private readonly statements;

  constructor(
    private readonly db: SqliteDatabase,
    private readonly events: EventBus,
  ) {
    this.statements = {
      all: db.prepare<[], ProjectRow>('SELECT * FROM projects ORDER BY name COLLATE NOCASE, created_at'),
      byId: db.prepare<[string], ProjectRow>('SELECT * FROM projects WHERE id = ?'),
      byPath: db.prepare<[string], ProjectRow>('SELECT * FROM projects WHERE path = ?'),
      insert: db.prepare('INSERT INTO projects (id, name, path, created_at, seq) VALUES (?, ?, ?, ?, ?)'),
      rename: db.prepare('UPDATE projects SET name = ?, seq = ? WHERE id = ?'),
      remove: db.prepare('DELETE FROM projects WHERE id = ?'),
      seq: db.prepare<[], { value: number }>("SELECT value FROM app_meta WHERE key = 'seq'"),
      bumpSeq: db.prepare<[], { value: number }>("UPDATE app_meta SET value = value + 1 WHERE key = 'seq' RETURNING value"),
    };
  }

  list(): ProjectList {
    return this.db.transaction(() => ({
      seq: this.statements.seq.get()?.value ?? 0,
      projects: this.statements.all.all().map(toProject),
    }))();
  }

  get(projectId: string): Project {
    const row = this.statements.byId.get(projectId);
    if (!row) fail('not-found', `No project with id ${projectId}`);
    return toProject(row);
  }

  /** Adding a folder that is already registered returns the existing project. */
  add(folder: string): Project {
    const canonical = canonicalFolder(folder);
    const existing = this.statements.byPath.get(canonical);
    if (existing) return toProject(existing);
    const project = this.db.transaction(() => {
      const seq = this.nextSeq();
      const row: ProjectRow = {
        id: newId('p'),
        name: path.basename(canonical) || canonical,
        path: canonical,
        created_at: Date.now(),
        seq,
      };
      this.statements.insert.run(row.id, row.name, row.path, row.created_at, row.seq);
      return toProject(row);
    })();
    this.events.emit({ name: 'projectChanged', seq: project.seq, projectId: project.id, project });
    return project;
  }

  rename(projectId: string, name: string): Project {
    const project = this.db.transaction(() => {
      this.get(projectId);
      this.statements.rename.run(name.trim(), this.nextSeq(), projectId);
      return this.get(projectId);
    })();
    this.events.emit({ name: 'projectChanged', seq: project.seq, projectId, project });
    return project;
  }

  remove(projectId: string): void {
    const seq = this.db.transaction(() => {
      this.get(projectId);
      this.statements.remove.run(projectId);
      return this.nextSeq();
    })();
    this.events.emit({ name: 'projectChanged', seq, projectId, project: null });
  }

  /** The deepest registered project whose folder holds `folder`. */
  findContaining(folder: string): Project {
    const absolute = path.resolve(folder);
    const canonical = fs.existsSync(absolute) ? fs.realpathSync(absolute) : absolute;
    const matches = this.statements
      .all.all()
      .filter((row) => isInside(row.path, canonical))
      .sort((a, b) => b.path.length - a.path.length);
    const match = matches[0];
    if (!match) fail('not-found', `No registered project holds ${canonical}. Add it first: drover serve --project PATH, or Add project in the app.`);
    return toProject(match);
  }

  private nextSeq(): number {
    const row = this.statements.bumpSeq.get();
    if (!row) fail('internal', 'app_meta has no seq row');
    return row.value;
  }
}
