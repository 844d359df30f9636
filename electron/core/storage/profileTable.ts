import type { SqliteDatabase } from './sqlite';

/** Custom agent profiles in the app database, each stored as its JSON definition. */
export class ProfileTable {
  private readonly statements;

  constructor(db: SqliteDatabase) {
    this.statements = {
      all: db.prepare<[], { definition: string }>('SELECT definition FROM agent_profiles ORDER BY id'),
      byId: db.prepare<[string], { definition: string }>('SELECT definition FROM agent_profiles WHERE id = ?'),
      upsert: db.prepare('INSERT INTO agent_profiles (id, definition) VALUES (?, ?) ON CONFLICT (id) DO UPDATE SET definition = excluded.definition'),
      remove: db.prepare('DELETE FROM agent_profiles WHERE id = ?'),
    };
  }

  definitions(): string[] {
    return this.statements.all.all().map((row) => row.definition);
  }

  definition(profileId: string): string | undefined {
    return this.statements.byId.get(profileId)?.definition;
  }

  save(profileId: string, definition: string): void {
    this.statements.upsert.run(profileId, definition);
  }

  /** False when there was no such profile. */
  remove(profileId: string): boolean {
    return this.statements.remove.run(profileId).changes > 0;
  }
}
