import { isNewerVersion } from '../../electron/core/profiles/cliVersion';
import { installedCliVersion } from './agentCliBin';
import { prepareClaudeHome, subscriberEnv } from './claudeHome';
import { prepareCodexHome } from './codexHome';
import { prepareCopilotHome } from './copilotHome';
import { claudeToolName, startFakeAnthropic, lastUserText as anthropicUserText, unifiedLimitHeaders } from './fakeAnthropic';
import { createGeminiProtocol, geminiToolName, lastUserText as geminiUserText } from './fakeGemini';
import { lastUserText as responsesUserText, startFakeResponses } from './fakeOpenAiResponses';
import { prepareGeminiHome } from './geminiHome';
import { DROVER_TOOL_NAMES } from '../../shared/droverTools';
import { opencodeToolName, prepareOpencodeHome } from './opencodeHome';
import type { AgentCliFixture } from './realCliRig';
import { ScriptedModelServer } from './scriptedModelServer';

/**
 * A person answering each first-run dialog: wait until `screen` shows, then press `keys`, one
 * after another (each once the screen is still); chosen from what the dialog shows where versions
 * draw it differently.
 */
export interface DialogAnswer {
  screen: RegExp;
  keys: string | ((screen: string) => string[]);
  name: string;
}

const UP = '\u001b[A';
const DOWN = '\u001b[B';

/** What the real-CLI scenarios need to know of each CLI, beyond what the rig does. */
export interface CliScenarioFixture extends AgentCliFixture {
  /** The first-run dialogs in order, and how a person answers each. */
  firstRunDialogs: DialogAnswer[];
  /** The text of the last message a person (or a wake) typed, as the model received it. */
  lastUserText(request: import('./scriptedModelServer').RecordedRequest): string | undefined;
  /** Whether a usage limit, as this fixture's server sends it, names its reset time on screen. */
  limitShowsReset: boolean;
  /**
   * How the CLI, as the fixture runs it, goes on by itself when a usage limit resets (null: it does
   * not): the last user text of its continuation, when the limit hit a turn on `prompt`, and whether
   * it waits for that moment at an open prompt (Drover reads it ready meanwhile; only the wake's
   * grace past the reset keeps a wake out).
   */
  limitContinuation: { userText(prompt: string): string; waitsAtPrompt: boolean } | null;
  /** What a model sends to run a shell command that needs the person's approval. */
  approvalShell(command: string): Record<string, unknown>;
  /** The plan quota the CLI reports after a turn, as this fixture's server sends it (null: none). */
  quotaAfterTurn: { fiveHour: number; weekly: number } | null;
  /** The keys a person presses in the CLI's approval dialog of an MCP tool to allow this one call. */
  approveOnce: DialogAnswer['keys'];
  /** The name the model calls one of Drover's tools by in this CLI. */
  modelToolName(droverTool: string): string;
}

const plainShell = (command: string) => ({ command });

/** Slows the model's answers, so a turn is seen busy. */
type TurnDelay = (ms: number) => void;
const turnDelays = new WeakMap<ScriptedModelServer, TurnDelay>();

export function setTurnDelay(server: ScriptedModelServer, ms: number): void {
  turnDelays.get(server)?.(ms);
}

const ESC = '\u001b';

/**
 * Claude Code 2.1.197 as a claude.ai subscriber (OAuth), so its plan limits count: a 429 prints
 * "You've hit your session limit · resets …" and the status line gets `rate_limits`.
 */
export const CLAUDE_FIXTURE: CliScenarioFixture = {
  profileId: 'claude',
  get version() {
    return installedCliVersion('@anthropic-ai/claude-code');
  },
  async startModel() {
    let holdMs = 0;
    // upgrade paths 'none': the limit line only, without the plan menu a person would see.
    const started = await startFakeAnthropic({
      holdMs: () => holdMs,
      extraHeaders: () => unifiedLimitHeaders({ status: 'allowed', fiveHourUtilization: 0.42, sevenDayUtilization: 0.17, resetsAt: Math.floor(Date.now() / 1000) + 3 * 3600 }),
      rateLimit: { claim: 'five_hour', upgradePaths: ['none'] },
    });
    turnDelays.set(started.server, (ms) => (holdMs = ms));
    return started;
  },
  prepareHome(home, options) {
    const { env } = prepareClaudeHome(home, { ...options, version: this.version });
    return { env: options.firstRun ? env : subscriberEnv(env) };
  },
  firstRunDialogs: [
    { name: 'first-run-theme', screen: /Choose the text style that looks best with your terminal/, keys: '\r' },
    // 2.1.197 numbers its options ("1. Yes"); 2.1.332 does not, its cursor on "No (recommended)".
    { name: 'first-run-api-key', screen: /Do you want to use this API key\?/, keys: (screen) => (/\b1\. Yes/.test(screen) ? ['1'] : [UP, '\r']) },
    { name: 'first-run-security-notes', screen: /Press Enter to continue/, keys: '\r' },
    // 2.1.332 puts its cursor on "No, exit" first.
    { name: 'first-run-trust', screen: /Is this a project you created or one you trust\?/, keys: (screen) => (/❯ No, exit/.test(screen) ? [DOWN, '\r'] : ['\r']) },
  ],
  lastUserText: anthropicUserText,
  limitShowsReset: true,
  // Since 2.1.234 (autoContinueAtUsageLimit, on by default) a subscriber's Claude Code sends a prompt of
  // its own 30–90 s after the reset; meanwhile its prompt is open ("Continuing automatically at
  // 12:53am · Esc to cancel"). See the README for what it takes offline.
  get limitContinuation() {
    return isNewerVersion('2.1.234', this.version) ? null : { userText: () => 'Your claude.ai usage limit has reset. Continue the task you were working on', waitsAtPrompt: true };
  },
  approvalShell: plainShell,
  quotaAfterTurn: { fiveHour: 42, weekly: 17 },
  // 2.1.332 in auto mode, through a gateway that does not pass its server-side check, first says so
  // (Enter stays in auto mode), then asks "Do you want to proceed? ❯ No / Yes" (No first).
  approveOnce: (screen) => (/Enter to stay in auto mode/.test(screen) ? ['\r'] : /❯ No\n\s+Yes/.test(screen) ? [DOWN, '\r'] : ['\r']),
  modelToolName: claudeToolName,
};

export const CODEX_FIXTURE: CliScenarioFixture = {
  profileId: 'codex',
  get version() {
    return installedCliVersion('@openai/codex');
  },
  async startModel() {
    const started = await startFakeResponses({ rateLimitPlanType: null });
    turnDelays.set(started.server, (ms) => (started.protocol.options.eventDelayMs = ms));
    return started;
  },
  prepareHome(home, options) {
    return { env: prepareCodexHome(home, options).env };
  },
  firstRunDialogs: [
    { name: 'first-run-trust', screen: /Trust this folder\?/, keys: '\r' },
    { name: 'first-run-model-migration', screen: /Meet GPT-/, keys: `${ESC}` },
  ],
  lastUserText: responsesUserText,
  limitShowsReset: true,
  limitContinuation: null,
  // Codex runs a command in its sandbox without asking; a model asks to leave the sandbox this way.
  approvalShell: (command) => ({ command, sandbox_permissions: 'require_escalated', justification: 'Create the marker file?' }),
  quotaAfterTurn: null,
  approveOnce: '\r',
  modelToolName: (droverTool) => `mcp__drover__${droverTool}`,
};

export const GEMINI_FIXTURE: CliScenarioFixture = {
  profileId: 'gemini',
  get version() {
    return installedCliVersion('@google/gemini-cli');
  },
  async startModel() {
    const protocol = createGeminiProtocol();
    const server = new ScriptedModelServer(protocol);
    const url = await server.listen();
    turnDelays.set(server, (ms) => (protocol.turnDelayMs = ms));
    return { server, url };
  },
  // One attempt and the "Keep trying / Stop" question after a failed one, or the CLI retries an API
  // error for ever (its default).
  prepareHome: (home, options) => prepareGeminiHome(home, { ...options, maxAttempts: 1, errorVerbosity: 'full' }),
  firstRunDialogs: [
    { name: 'first-run-trust', screen: /Do you trust the files in this folder\?/, keys: '1' },
    { name: 'first-run-auth', screen: /How would you like to authenticate/, keys: '\r' },
    { name: 'first-run-api-key', screen: /Enter Gemini API Key/, keys: '\r' },
  ],
  lastUserText: geminiUserText,
  limitShowsReset: true,
  limitContinuation: null,
  approvalShell: plainShell,
  quotaAfterTurn: null,
  approveOnce: '\r',
  modelToolName: geminiToolName,
};

/** Copilot CLI's name for a scripted tool: Drover's become `drover-<name>`, `shell` is its `bash`. */
export function copilotToolName(name: string): string {
  if ((DROVER_TOOL_NAMES as readonly string[]).includes(name)) return `drover-${name}`;
  if (name === 'shell') return 'bash';
  return name;
}

/** GitHub Copilot CLI 1.0.102 offline, with the fake Anthropic server as its BYOK provider. */
export const COPILOT_FIXTURE: CliScenarioFixture = {
  profileId: 'copilot',
  get version() {
    return installedCliVersion('@github/copilot');
  },
  async startModel() {
    let holdMs = 0;
    const started = await startFakeAnthropic({ holdMs: () => holdMs, toolName: copilotToolName });
    turnDelays.set(started.server, (ms) => (holdMs = ms));
    return started;
  },
  prepareHome: (home, options) => prepareCopilotHome(home, options),
  firstRunDialogs: [{ name: 'first-run-trust', screen: /Do you trust the files in this folder\?/, keys: '1' }],
  lastUserText: anthropicUserText,
  limitShowsReset: false,
  limitContinuation: null,
  approvalShell: plainShell,
  quotaAfterTurn: null,
  approveOnce: '1',
  modelToolName: copilotToolName,
};

/**
 * OpenCode 1.18.33 with a custom provider on the fake Anthropic server. It has no first-run dialog;
 * its permission dialog takes Enter on its first choice, "Allow once".
 */
export const OPENCODE_FIXTURE: CliScenarioFixture = {
  profileId: 'opencode',
  get version() {
    return installedCliVersion('opencode-ai');
  },
  async startModel() {
    let holdMs = 0;
    const started = await startFakeAnthropic({ holdMs: () => holdMs, toolName: opencodeToolName });
    turnDelays.set(started.server, (ms) => (holdMs = ms));
    return started;
  },
  prepareHome: (home, options) => prepareOpencodeHome(home, options),
  firstRunDialogs: [],
  lastUserText: anthropicUserText,
  // The plugin reports when OpenCode retries (its screen says only how long it waits).
  limitShowsReset: true,
  // OpenCode retries the 429 after its `retry-after`: the same turn again.
  limitContinuation: { userText: (prompt) => prompt, waitsAtPrompt: false },
  approvalShell: (command) => ({ command, description: 'Create the marker file' }),
  quotaAfterTurn: null,
  approveOnce: '\r',
  modelToolName: opencodeToolName,
};
