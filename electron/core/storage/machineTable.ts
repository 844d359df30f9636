import type { SqliteDatabase } from './sqlite';

/** The machines a person added, each stored as its JSON definition under its name. */
export class MachineTable {
  private readonly statements;

  constructor(db: SqliteDatabase) {
    this.statements = {
      all: db.prepare<[], { definition: string }>('SELECT definition FROM machines ORDER BY name'),
      byName: db.prepare<[string], { definition: string }>('SELECT definition FROM machines WHERE name = ?'),
      insert: db.prepare('INSERT INTO machines (name, definition) VALUES (?, ?)'),
      remove: db.prepare('DELETE FROM machines WHERE name = ?'),
    };
  }

  definitions(): string[] {
    return this.statements.all.all().map((row) => row.definition);
  }

  definition(name: string): string | undefined {
    return this.statements.byName.get(name)?.definition;
  }

  /** False when a machine of that name is already there. */
  insert(name: string, definition: string): boolean {
    try {
      this.statements.insert.run(name, definition);
      return true;
    } catch (error) {
      if ((error as { code?: string }).code === 'SQLITE_CONSTRAINT_PRIMARYKEY') return false;
      throw error;
    }
  }

  /** False when there was no such machine. */
  remove(name: string): boolean {
    return this.statements.remove.run(name).changes > 0;
  }
}
