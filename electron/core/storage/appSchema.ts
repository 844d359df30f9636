/** Numbered migrations of `<dataDir>/app.sqlite`; append only, never edit a shipped entry. */
export const APP_MIGRATIONS: readonly string[] = [
  `
  CREATE TABLE app_meta (key TEXT PRIMARY KEY, value INTEGER NOT NULL);
  INSERT INTO app_meta (key, value) VALUES ('seq', 0);
  CREATE TABLE projects (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    path TEXT NOT NULL UNIQUE,
    created_at INTEGER NOT NULL,
    seq INTEGER NOT NULL
  );
  `,
  `
  CREATE TABLE agent_profiles (id TEXT PRIMARY KEY, definition TEXT NOT NULL);
  `,
  `
  CREATE TABLE app_settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);
  `,
  `
  CREATE TABLE machines (name TEXT PRIMARY KEY, definition TEXT NOT NULL);
  `,
];
