import { ProjectSettingsSchema, type ProjectSettings } from '../../../shared/entities/projects';
import type { SqliteDatabase } from './sqlite';

/** A project's settings: what the project stored over the host's defaults. */
export class SettingsStore {
  private readonly statements;

  constructor(
    db: SqliteDatabase,
    private readonly defaults: ProjectSettings,
  ) {
    this.statements = {
      all: db.prepare<[], { key: string; value: string }>('SELECT key, value FROM settings'),
      upsert: db.prepare('INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value'),
    };
  }

  get(): ProjectSettings {
    const stored: Record<string, unknown> = {};
    for (const row of this.statements.all.all()) stored[row.key] = JSON.parse(row.value);
    const merged = ProjectSettingsSchema.safeParse({ ...this.defaults, ...stored });
    return merged.success ? merged.data : this.defaults;
  }

  update(change: Partial<ProjectSettings>): ProjectSettings {
    for (const [key, value] of Object.entries(change)) {
      if (value !== undefined) this.statements.upsert.run(key, JSON.stringify(value));
    }
    return this.get();
  }
}
