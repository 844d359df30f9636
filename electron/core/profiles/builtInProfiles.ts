import type { AgentProfileInput } from '../../../shared/entities';

/** The usage-limit wording the Anthropic and OpenAI CLIs print; the reset time follows "resets". */
const LIMIT_PATTERN =
  "(hit your (session|usage|weekly) limit|limit reached|out of extra usage|usage limit)[^\\n]*?(resets?|try again at)";

/**
 * Profiles shipped with Drover. Hooks are the primary signal where the CLI offers them; the screen
 * patterns are the fallback, and people can copy a profile to adjust them when a CLI's screen changes.
 */
export const BUILT_IN_PROFILES: readonly AgentProfileInput[] = [
  {
    id: 'claude',
    name: 'Claude Code',
    command: 'claude',
    args: [],
    env: {},
    promptPattern: '^[\\s│|]*>\\s',
    busyPattern: 'esc to interrupt',
    needsInputPattern: 'Do you want to (proceed|make this edit|create)|❯\\s*1\\.\\s*Yes',
    usageLimitPattern: LIMIT_PATTERN,
    quietMs: 800,
    integration: 'claude-hooks',
    wakeAs: 'prompt',
  },
  {
    id: 'codex',
    name: 'Codex CLI',
    command: 'codex',
    args: [],
    env: {},
    promptPattern: '^[\\s▌›]*›\\s|^▌\\s',
    busyPattern: 'esc to interrupt|Working \\(',
    needsInputPattern: 'Allow command\\?|Approve|\\[y/n\\]',
    usageLimitPattern: LIMIT_PATTERN,
    quietMs: 800,
    integration: 'codex-notify',
    wakeAs: 'prompt',
  },
  {
    id: 'aider',
    name: 'Aider',
    command: 'aider',
    args: [],
    env: {},
    promptPattern: '^[\\w./-]*> ?$',
    busyPattern: 'Waiting for|Thinking|Tokens: .* sent',
    needsInputPattern: '\\(Y\\)es/\\(N\\)o',
    usageLimitPattern: 'rate limit|RateLimitError',
    quietMs: 1000,
    integration: 'none',
    wakeAs: 'prompt',
  },
  {
    id: 'gemini',
    name: 'Gemini CLI',
    command: 'gemini',
    args: [],
    env: {},
    promptPattern: 'Type your message',
    busyPattern: 'esc to cancel',
    needsInputPattern: 'Allow execution|Apply this change\\?',
    usageLimitPattern: 'quota exceeded|Quota exceeded|rate limit',
    quietMs: 800,
    integration: 'none',
    wakeAs: 'prompt',
  },
  {
    id: 'shell',
    name: 'Shell',
    command: '$SHELL',
    args: [],
    env: {},
    promptPattern: '[$#%>] ?$',
    busyPattern: null,
    needsInputPattern: null,
    usageLimitPattern: null,
    quietMs: 400,
    integration: 'none',
    wakeAs: 'shell-note',
  },
];
