import type { Project, ProjectList } from '../../../shared/entities/projects';
import { AppSeq } from './appSeq';
import type { SqliteDatabase } from './sqlite';

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

/** The registered projects in the app database, with the app-wide seq their changes carry. */
export class ProjectTable {
  private readonly statements;
  private readonly seq: AppSeq;

  constructor(private readonly db: SqliteDatabase) {
    this.seq = new AppSeq(db);
    this.statements = {
      all: db.prepare<[], ProjectRow>('SELECT * FROM projects ORDER BY name COLLATE NOCASE, created_at'),
      byId: db.prepare<[string], ProjectRow>('SELECT * FROM projects WHERE id = ?'),
      byPath: db.prepare<[string], ProjectRow>('SELECT * FROM projects WHERE path = ?'),
      insert: db.prepare('INSERT INTO projects (id, name, path, created_at, seq) VALUES (@id, @name, @path, @createdAt, @seq)'),
      rename: db.prepare('UPDATE projects SET name = ?, seq = ? WHERE id = ?'),
      remove: db.prepare('DELETE FROM projects WHERE id = ?'),
    };
  }

  /** Runs `work` in one transaction of the app database. */
  transaction<T>(work: () => T): T {
    return this.db.transaction(work)();
  }

  list(): ProjectList {
    return this.transaction(() => ({ seq: this.seq.current(), projects: this.all() }));
  }

  all(): Project[] {
    return this.statements.all.all().map(toProject);
  }

  get(projectId: string): Project | undefined {
    const row = this.statements.byId.get(projectId);
    return row && toProject(row);
  }

  byPath(folder: string): Project | undefined {
    const row = this.statements.byPath.get(folder);
    return row && toProject(row);
  }

  insert(project: Project): void {
    this.statements.insert.run(project);
  }

  rename(projectId: string, name: string, seq: number): void {
    this.statements.rename.run(name, seq, projectId);
  }

  remove(projectId: string): void {
    this.statements.remove.run(projectId);
  }

  /** The next app-wide seq (project changes are ordered across the app, not per project). */
  nextSeq(): number {
    return this.seq.next();
  }
}
