import fs from 'node:fs';
import path from 'node:path';

/** The model the fake provider serves: a slug of Codex's bundled catalog, so its tools are the real ones. */
export const CODEX_TEST_MODEL = 'gpt-5.5';

/** The env variable holding the fake provider's key (`env_key`); Codex sends it as a Bearer token. */
export const CODEX_FAKE_KEY_ENV = 'DROVER_FAKE_OPENAI_API_KEY';

export interface CodexHomeOptions {
  /** The fake Responses server's base URL, ending with `/v1` (`startFakeResponses().url`). */
  modelUrl: string;
  /**
   * true: a new user's first start in a git repository, dialogs in this order — folder trust
   * ("Trust this folder? … › 1. Trust and continue / 2. Back to Agent Command Center", Enter
   * accepts) then the model migration ("Meet GPT-6 Sol … › 1. Try new model / 2. Use existing
   * model", Enter/Esc confirm). Codex shows no trust dialog for a folder outside a git repository.
   * false: the folder trusted and the migration seen, straight to the input prompt.
   */
  firstRun: boolean;
  /** The folder Codex starts in (trusted up front when `firstRun` is false). */
  projectDir: string;
  /**
   * Hide the "Approaching rate limits / Switch to gpt-6-luna for lower credit usage?" dialog Codex
   * opens after its first usage-limit error (`notice.hide_rate_limit_model_nudge`). Default false:
   * shown, as a real user sees it.
   */
  hideRateLimitNudge?: boolean;
}

function tomlString(value: string): string {
  return JSON.stringify(value);
}

/**
 * Prepares `home` as an isolated HOME for Codex CLI 0.171 with `CODEX_HOME` = `home/.codex`, and
 * returns the env and arguments to start it with, offline against the fake Responses server.
 *
 * - The model provider `fake` (`wire_api = "responses"`, key from {@link CODEX_FAKE_KEY_ENV}) means
 *   no login screen ("Welcome to Codex … > 1. Sign in with ChatGPT"), which Codex shows only for its
 *   own OpenAI provider without credentials.
 * - Approvals stay on: `approval_policy = "on-request"` with the `workspace-write` sandbox, so a
 *   command the model runs with `sandbox_permissions: "require_escalated"` opens "Would you like to
 *   run the following command? … › 1. Yes, proceed (y)". (0.171 refuses `untrusted`.)
 * - `request_max_retries = 0` and `stream_max_retries = 0`: a scripted API error is one request and
 *   is reported at once (Codex's defaults retry a 500 about 30 times over 25 s: 5 HTTP attempts for
 *   each of 6 stream attempts, "Reconnecting... n/5").
 * - `--no-daemon`: without it Codex 0.171 runs the conversation in a background app-server daemon
 *   per CODEX_HOME that outlives the TUI and starts MCP servers with the env of whichever TUI started
 *   it. (Any `-c` flag also forces this embedded mode, with a "Running without the shared background
 *   server" warning that `--no-daemon` avoids.)
 * - No analytics, no update check. The only warning left is the sandbox's ("Codex could not find
 *   bubblewrap on PATH …", "⚠ 1 warning · f2 to view" in the footer) where bwrap is not installed.
 */
export function prepareCodexHome(home: string, options: CodexHomeOptions): { env: Record<string, string>; args: string[] } {
  const codexHome = path.join(home, '.codex');
  fs.mkdirSync(codexHome, { recursive: true });
  const projectDir = fs.existsSync(options.projectDir) ? fs.realpathSync(options.projectDir) : path.resolve(options.projectDir);

  const lines = [
    `model = ${tomlString(CODEX_TEST_MODEL)}`,
    'model_provider = "fake"',
    'approval_policy = "on-request"',
    'sandbox_mode = "workspace-write"',
    'check_for_update_on_startup = false',
    '',
    '[analytics]',
    'enabled = false',
    '',
    '[model_providers.fake]',
    'name = "Fake Responses"',
    `base_url = ${tomlString(options.modelUrl)}`,
    `env_key = ${tomlString(CODEX_FAKE_KEY_ENV)}`,
    'wire_api = "responses"',
    'request_max_retries = 0',
    'stream_max_retries = 0',
  ];
  const notice: string[] = [];
  if (options.hideRateLimitNudge) notice.push('hide_rate_limit_model_nudge = true');
  if (notice.length > 0) lines.push('', '[notice]', ...notice);
  if (!options.firstRun) {
    lines.push(
      '',
      `[projects.${tomlString(projectDir)}]`,
      'trust_level = "trusted"',
      '',
      // What Codex itself writes once the model migration dialog was answered.
      '[notice.model_migrations]',
      `${tomlString(CODEX_TEST_MODEL)} = "gpt-6-sol"`,
    );
  }
  fs.writeFileSync(path.join(codexHome, 'config.toml'), `${lines.join('\n')}\n`, { mode: 0o600 });

  const env: Record<string, string> = {
    HOME: home,
    CODEX_HOME: codexHome,
    [CODEX_FAKE_KEY_ENV]: 'sk-drover-fake-key-for-tests-only',
  };
  return { env, args: ['--no-daemon'] };
}
