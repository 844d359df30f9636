import type { SqliteDatabase } from './sqlite';

/** The app database's tables of JSON definitions, each row one definition under its key. */
const TABLES = {
  /** Custom agent profiles, by id. */
  profiles: { table: 'agent_profiles', key: 'id' },
  /** The machines a person added, by name. */
  machines: { table: 'machines', key: 'name' },
} as const;

export class DefinitionTable {
  private readonly statements;

  constructor(db: SqliteDatabase, kind: keyof typeof TABLES) {
    const { table, key } = TABLES[kind];
    this.statements = {
      all: db.prepare<[], { definition: string }>(`SELECT definition FROM ${table} ORDER BY ${key}`),
      byKey: db.prepare<[string], { definition: string }>(`SELECT definition FROM ${table} WHERE ${key} = ?`),
      insert: db.prepare(`INSERT INTO ${table} (${key}, definition) VALUES (?, ?)`),
      upsert: db.prepare(`INSERT INTO ${table} (${key}, definition) VALUES (?, ?) ON CONFLICT (${key}) DO UPDATE SET definition = excluded.definition`),
      remove: db.prepare(`DELETE FROM ${table} WHERE ${key} = ?`),
    };
  }

  definitions(): string[] {
    return this.statements.all.all().map((row) => row.definition);
  }

  definition(key: string): string | undefined {
    return this.statements.byKey.get(key)?.definition;
  }

  save(key: string, definition: string): void {
    this.statements.upsert.run(key, definition);
  }

  /** False when a definition under that key is already there. */
  insert(key: string, definition: string): boolean {
    try {
      this.statements.insert.run(key, definition);
      return true;
    } catch (error) {
      if ((error as { code?: string }).code === 'SQLITE_CONSTRAINT_PRIMARYKEY') return false;
      throw error;
    }
  }

  /** False when there was none under that key. */
  remove(key: string): boolean {
    return this.statements.remove.run(key).changes > 0;
  }
}
