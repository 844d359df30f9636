import { AppSettingsSchema, DEFAULT_APP_SETTINGS, type AppSettings, type AppSettingsSnapshot } from '../../../shared/appSettings';
import { AppSeq } from './appSeq';
import type { SqliteDatabase } from './sqlite';

/**
 * The app settings in the app database: one row per setting a person changed, read over the
 * defaults. A stored value that no longer fits its schema (written by another version) is skipped,
 * so it falls back to its default instead of failing the whole read.
 */
export class AppSettingsTable {
  private readonly statements;
  private readonly seq: AppSeq;

  constructor(private readonly db: SqliteDatabase) {
    this.seq = new AppSeq(db);
    this.statements = {
      all: db.prepare<[], { key: string; value: string }>('SELECT key, value FROM app_settings'),
      upsert: db.prepare('INSERT INTO app_settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value'),
    };
  }

  read(): AppSettingsSnapshot {
    return this.db.transaction(() => ({ seq: this.seq.current(), settings: this.settings() }))();
  }

  /** Stores the changed settings and stamps the change with the next app-wide seq. */
  update(change: Partial<AppSettings>): AppSettingsSnapshot {
    return this.db.transaction(() => {
      for (const [key, value] of Object.entries(change)) {
        if (value !== undefined) this.statements.upsert.run(key, JSON.stringify(value));
      }
      return { seq: this.seq.next(), settings: this.settings() };
    })();
  }

  private settings(): AppSettings {
    const settings: Record<string, unknown> = { ...DEFAULT_APP_SETTINGS };
    const shape = AppSettingsSchema.shape;
    for (const row of this.statements.all.all()) {
      if (!Object.prototype.hasOwnProperty.call(shape, row.key)) continue;
      const parsed = shape[row.key as keyof typeof shape].safeParse(parseJson(row.value));
      if (parsed.success) settings[row.key] = parsed.data;
    }
    return AppSettingsSchema.parse(settings);
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
