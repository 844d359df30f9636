import fs from 'node:fs';
import path from 'node:path';

export interface GeminiHomeOptions {
  /** The fake Gemini API's base URL (`startFakeGemini().url`), passed as GOOGLE_GEMINI_BASE_URL. */
  modelUrl: string;
  /**
   * true: a fresh install, so Gemini CLI 0.61.0 shows its first-run dialogs in this order: folder
   * trust ("Do you trust the files in this folder?"), auth method ("How would you like to
   * authenticate for this project?"), then the API key box ("Enter Gemini API Key", prefilled from
   * GEMINI_API_KEY). false: already set up, straight to the input prompt.
   */
  firstRun: boolean;
  /** The folder the CLI starts in (trusted up front when not a first run). */
  projectDir: string;
  /**
   * general.maxAttempts (1..10, the CLI's default is 10, about 4 minutes of backoff): how many times
   * a failing turn is sent per round. A low value makes API-error scenarios take seconds; what
   * happens after a round depends on errorVerbosity.
   */
  maxAttempts?: number;
  /**
   * ui.errorVerbosity. The CLI's default, `low`, retries a failing turn (HTTP 500, a per-minute
   * 429) silently and for as long as it keeps failing (a new round of maxAttempts after each). `full`
   * asks instead after maxAttempts: "We are currently experiencing high demand." `1. Keep trying` /
   * `2. Stop`, and Stop prints `✕ [API Error: {"error":{"code":500,...}}]`.
   */
  errorVerbosity?: 'low' | 'full';
}

function writeJson(file: string, value: unknown, mode = 0o644): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, `${JSON.stringify(value, null, 2)}\n`, { mode });
}

/**
 * Prepares an isolated HOME for Gemini CLI (0.61.0): `~/.gemini/settings.json` with update checks,
 * usage statistics and telemetry off and the default approval mode (the shell tool asks before it
 * runs), plus, when not a first run, the choices the first-run dialogs would store: the auth type
 * (`security.auth.selectedType`) and the project in `~/.gemini/trustedFolders.json`.
 *
 * The returned env is what the CLI needs on top of PATH/TERM: HOME (and GEMINI_CLI_HOME, which
 * wins over HOME), the fake model's URL, a fake API key, and system settings / system defaults
 * paths inside this HOME that do not exist, so /etc/gemini-cli is never read. A session that gives
 * Gemini its own settings (Drover does, for its MCP server and hooks) overrides
 * GEMINI_CLI_SYSTEM_SETTINGS_PATH (read only when the file and all its parent folders are owned by
 * root) or GEMINI_CLI_HOME (a per-session overlay of `~/.gemini`, which works for any user).
 * Hooks and stdio MCP servers run only in a trusted folder: with firstRun they start after the trust
 * dialog is answered (the CLI relaunches itself then).
 */
export function prepareGeminiHome(home: string, options: GeminiHomeOptions): { env: Record<string, string> } {
  const geminiDir = path.join(home, '.gemini');
  fs.mkdirSync(geminiDir, { recursive: true });
  const settings: Record<string, unknown> = {
    general: {
      enableAutoUpdate: false,
      enableAutoUpdateNotification: false,
      defaultApprovalMode: 'default',
      ...(options.maxAttempts !== undefined ? { maxAttempts: options.maxAttempts } : {}),
    },
    privacy: { usageStatisticsEnabled: false },
    telemetry: { enabled: false, logPrompts: false },
    ide: { enabled: false, hasSeenNudge: true },
    ...(options.errorVerbosity ? { ui: { errorVerbosity: options.errorVerbosity } } : {}),
    security: {
      folderTrust: { enabled: true },
      ...(options.firstRun ? {} : { auth: { selectedType: 'gemini-api-key' } }),
    },
  };
  writeJson(path.join(geminiDir, 'settings.json'), settings);
  if (!options.firstRun) {
    writeJson(path.join(geminiDir, 'trustedFolders.json'), { [fs.realpathSync(options.projectDir)]: 'TRUST_FOLDER' }, 0o600);
  }
  // Paths that do not exist: /etc/gemini-cli is never read, and no "Skipping system settings" warning
  // is printed (0.61.0 reads a system file only when it and every parent folder are owned by root
  // and not writable by group or others, which a temp folder under /tmp never is).
  const systemSettings = path.join(home, 'no-system-settings.json');
  const systemDefaults = path.join(home, 'no-system-defaults.json');
  return {
    env: {
      HOME: home,
      GEMINI_CLI_HOME: home,
      GEMINI_API_KEY: 'fake-gemini-api-key',
      GOOGLE_GEMINI_BASE_URL: options.modelUrl,
      GEMINI_CLI_SYSTEM_SETTINGS_PATH: systemSettings,
      GEMINI_CLI_SYSTEM_DEFAULTS_PATH: systemDefaults,
    },
  };
}
