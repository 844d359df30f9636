import fs from 'node:fs';
import path from 'node:path';

/** The model Copilot CLI asks its Anthropic provider for (a name in its catalog, so its limits are known). */
export const COPILOT_TEST_MODEL = 'claude-sonnet-4.5';

export interface CopilotHomeOptions {
  /** The fake Anthropic server (`startFakeAnthropic().url`). */
  modelUrl: string;
  /**
   * true: a new user's first start, with the only first-run dialog offline mode shows, the folder
   * trust ("Confirm folder trust … Do you trust the files in this folder? ❯ 1. Yes / 2. Yes, and
   * remember this folder for future sessions / 3. No (Esc)"). false: the folder trusted, straight to
   * the input prompt.
   */
  firstRun: boolean;
  /** The folder Copilot CLI starts in (trusted up front when `firstRun` is false). */
  projectDir: string;
}

/**
 * Prepares `home` as an isolated HOME for GitHub Copilot CLI 1.0.102 (its state in `~/.copilot`)
 * and returns the env to start it with: offline mode (`COPILOT_OFFLINE=true`: no GitHub login,
 * telemetry, web tools, GitHub MCP server or auto-update) with a BYOK Anthropic provider, the fake
 * server. Copilot writes trusted folders into `~/.copilot/config.json`, as seeded here. Its native
 * package unpacks into `$XDG_CACHE_HOME/copilot/pkg` on the first start in each HOME.
 */
export function prepareCopilotHome(home: string, options: CopilotHomeOptions): { env: Record<string, string> } {
  const copilotDir = path.join(home, '.copilot');
  fs.mkdirSync(copilotDir, { recursive: true });
  const projectDir = fs.existsSync(options.projectDir) ? fs.realpathSync(options.projectDir) : path.resolve(options.projectDir);
  // What Copilot itself writes once its first start's tip was shown and, unless a first run, the folder trusted.
  const config = { firstLaunchAt: new Date().toISOString(), appTipShown: true, ...(options.firstRun ? {} : { trustedFolders: [projectDir] }) };
  fs.writeFileSync(path.join(copilotDir, 'config.json'), `${JSON.stringify(config, null, 2)}\n`, { mode: 0o600 });
  return {
    env: {
      HOME: home,
      COPILOT_OFFLINE: 'true',
      COPILOT_PROVIDER_BASE_URL: options.modelUrl,
      COPILOT_PROVIDER_TYPE: 'anthropic',
      COPILOT_PROVIDER_API_KEY: 'sk-drover-fake-key-for-tests-only',
      COPILOT_MODEL: COPILOT_TEST_MODEL,
    },
  };
}
