import fs from 'node:fs';
import path from 'node:path';

/** A fake key in Anthropic's shape; Claude Code remembers approved keys by their last 20 characters. */
export const FAKE_ANTHROPIC_API_KEY = 'sk-ant-api03-drover-fake-key-for-tests-only-0000000000-AAAAAAAA';

export interface ClaudeHomeOptions {
  /** The fake Anthropic server (`startFakeAnthropic().url`). */
  modelUrl: string;
  /**
   * true: a new user's first start, every dialog shown in this order — theme picker ("Choose the
   * text style…"), "Detected a custom API key in your environment", "Security notes: … Press Enter
   * to continue…", then the folder trust dialog ("Quick safety check: Is this a project you created
   * or one you trust?"). false: an account already set up, straight to the input prompt.
   */
  firstRun: boolean;
  /** The folder Claude Code starts in (trusted up front when `firstRun` is false). */
  projectDir: string;
  /** The installed CLI's version: onboarding and release notes count as seen for it. */
  version: string;
}

/**
 * Prepares `home` as an isolated HOME for Claude Code 2.1.197 and returns the env to start it with
 * (offline, against the fake server, no telemetry, no auto-update, no nonessential traffic).
 *
 * State lives in `$HOME/.claude.json` (onboarding done, approved API keys, trusted folders) and
 * `$HOME/.claude/settings.json` (theme). Two facts shape the first run:
 * - Onboarding checks connectivity to api.anthropic.com (and exits with "Unable to connect to
 *   Anthropic services" offline) unless the credential is one it does not log in for: setting
 *   ANTHROPIC_AUTH_TOKEN besides ANTHROPIC_API_KEY skips that check, and the new API key still gets
 *   its approval dialog. The price is a warning on the welcome screen ("⚠ Both ANTHROPIC_AUTH_TOKEN
 *   and ANTHROPIC_API_KEY set · auth may not work as expected"); requests carry both headers.
 * - With an API key Claude Code reads no plan limits (the `anthropic-ratelimit-unified-*` headers,
 *   the status line's `rate_limits`): a 429 prints "API Error: Request rejected (429) · <message>".
 *   To see "You've hit your session limit · resets …", start it as a claude.ai subscriber: drop
 *   ANTHROPIC_API_KEY / ANTHROPIC_AUTH_TOKEN from the env and set CLAUDE_CODE_OAUTH_TOKEN instead
 *   (see {@link subscriberEnv}).
 */
export function prepareClaudeHome(home: string, options: ClaudeHomeOptions): { env: Record<string, string> } {
  fs.mkdirSync(path.join(home, '.claude'), { recursive: true });
  const projectDir = fs.existsSync(options.projectDir) ? fs.realpathSync(options.projectDir) : path.resolve(options.projectDir);
  const config: Record<string, unknown> = options.firstRun
    ? {}
    : {
        numStartups: 1,
        hasCompletedOnboarding: true,
        lastOnboardingVersion: options.version,
        lastReleaseNotesSeen: options.version,
        customApiKeyResponses: { approved: [FAKE_ANTHROPIC_API_KEY.slice(-20)], rejected: [] },
        officialMarketplaceAutoInstallAttempted: true,
        projects: {
          [projectDir]: {
            allowedTools: [],
            hasTrustDialogAccepted: true,
            projectOnboardingSeenCount: 1,
            hasClaudeMdExternalIncludesApproved: false,
            hasClaudeMdExternalIncludesWarningShown: false,
          },
        },
      };
  // Both the first-run flow and the set-up one skip the plugin marketplace download.
  config.officialMarketplaceAutoInstallAttempted = true;
  fs.writeFileSync(path.join(home, '.claude.json'), `${JSON.stringify(config, null, 2)}\n`, { mode: 0o600 });
  if (!options.firstRun) {
    fs.writeFileSync(path.join(home, '.claude', 'settings.json'), `${JSON.stringify({ theme: 'dark' }, null, 2)}\n`);
  }

  const env: Record<string, string> = {
    HOME: home,
    ANTHROPIC_BASE_URL: options.modelUrl,
    ANTHROPIC_API_KEY: FAKE_ANTHROPIC_API_KEY,
    ...offlineSwitches(),
  };
  if (options.firstRun) env.ANTHROPIC_AUTH_TOKEN = 'drover-fake-auth-token';
  return { env };
}

/**
 * The env switches that keep Claude Code offline and quick: no telemetry, error reports, auto-update
 * or nonessential traffic (which also skips the quota probe, a `max_tokens: 1` "quota" request, and
 * the session-title request), and no API retries (by default it retries an error 10 times over about
 * 3 minutes; each retry would take the next scripted turn).
 */
export function offlineSwitches(): Record<string, string> {
  return {
    DISABLE_AUTOUPDATER: '1',
    DISABLE_TELEMETRY: '1',
    DISABLE_ERROR_REPORTING: '1',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    CLAUDE_CODE_DISABLE_FEEDBACK_SURVEY: '1',
    CLAUDE_CODE_MAX_RETRIES: '0',
  };
}

/**
 * Turns an env from {@link prepareClaudeHome} into a claude.ai subscriber's (OAuth), so the fake's
 * plan-limit headers count: the 429 prints "You've hit your session limit · resets 2:48pm
 * (Europe/Paris)" and the status line command receives `rate_limits`.
 */
export function subscriberEnv(env: Record<string, string>): Record<string, string> {
  const { ANTHROPIC_API_KEY: _key, ANTHROPIC_AUTH_TOKEN: _token, ...rest } = env;
  return { ...rest, CLAUDE_CODE_OAUTH_TOKEN: 'sk-ant-oat01-drover-fake-oauth-token' };
}
