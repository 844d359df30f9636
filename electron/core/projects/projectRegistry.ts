import fs from 'node:fs';
import path from 'node:path';
import type { Project, ProjectList } from '../../../shared/entities/projects';
import { isInside } from '../../../shared/folders';
import { fail } from '../errors';
import type { EventBus } from '../events/eventBus';
import { newId } from '../ids';
import type { ProjectTable } from '../storage/projectTable';

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

/**
 * The registry of project folders in the app database. Removing a project forgets it; the folder
 * itself is never touched.
 */
export class ProjectRegistry {
  constructor(
    private readonly table: ProjectTable,
    private readonly events: EventBus,
  ) {}

  list(): ProjectList {
    return this.table.list();
  }

  get(projectId: string): Project {
    const project = this.table.get(projectId);
    if (!project) fail('not-found', `No project with id ${projectId}`);
    return project;
  }

  /**
   * Adding a folder that is already registered returns the existing project. `prepare` runs for a
   * new project before it is registered (its state database is made there), so a failure in it
   * registers nothing.
   */
  add(folder: string, prepare: (projectId: string) => void = () => {}): Project {
    const canonical = canonicalFolder(folder);
    const existing = this.table.byPath(canonical);
    if (existing) return existing;
    const id = newId('p');
    prepare(id);
    const project = this.table.transaction(() => {
      const added: Project = { id, name: path.basename(canonical) || canonical, path: canonical, createdAt: Date.now(), seq: this.table.nextSeq() };
      this.table.insert(added);
      return added;
    });
    this.events.emit({ name: 'projectChanged', seq: project.seq, projectId: project.id, project });
    return project;
  }

  rename(projectId: string, name: string): Project {
    const project = this.table.transaction(() => {
      this.get(projectId);
      this.table.rename(projectId, name.trim(), this.table.nextSeq());
      return this.get(projectId);
    });
    this.events.emit({ name: 'projectChanged', seq: project.seq, projectId, project });
    return project;
  }

  remove(projectId: string): void {
    const seq = this.table.transaction(() => {
      this.get(projectId);
      this.table.remove(projectId);
      return this.table.nextSeq();
    });
    this.events.emit({ name: 'projectChanged', seq, projectId, project: null });
  }

  /** The deepest registered project whose folder holds `folder`. */
  findContaining(folder: string): Project {
    const absolute = path.resolve(folder);
    const canonical = fs.existsSync(absolute) ? fs.realpathSync(absolute) : absolute;
    const match = this.table
      .all()
      .filter((project) => isInside(project.path, canonical))
      .sort((a, b) => b.path.length - a.path.length)[0];
    if (!match) fail('not-found', `No registered project holds ${canonical}. Add it first: drover serve --project PATH, or Add project in the app.`);
    return match;
  }
}
