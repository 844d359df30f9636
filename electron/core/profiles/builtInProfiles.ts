import type { AgentProfileInput } from '../../../shared/entities/profiles';

/** Joins alternatives into one pattern. */
const anyOf = (...patterns: string[]) => patterns.join('|');
/** Matches only on the last non-blank line of the screen (where a shell's cursor waits). */
const ON_LAST_LINE = String.raw`(?![\s\S]*\S)`;

/**
 * Claude Code, from its screens as 2.1.197 and 2.1.332 draw them (test-support/realCli/screens/claude-*):
 * the input line is `❯` and a no-break space between two full-width rules (past prompts above use a
 * plain space, menu cursors are indented; after an API error 2.1.332 shows the placeholder "Resend
 * your message to try again" in the empty input); the busy line is a spinner glyph and a verb ending in
 * `…` ("✽ Wandering…", "✻ Deciphering… (16s)"), or an API retry; every dialog has one of the texts
 * below (2.1.332, in its default auto mode through a gateway that does not pass the server-side
 * safety check, first asks "Auto mode can't check actions in this session … Enter to stay in auto
 * mode"). A limit line names its reset ("You've hit your session limit · resets 2:48pm (Europe/Paris)");
 * "Approaching …" and "You've used 91% …" are warnings, not limits. It is the CLI's answer to the
 * prompt, drawn right under the prompt's echo at the left edge (`❯ …`, its wrapped lines indented,
 * then `  ⎿  You've hit …`): the same words in a tool's output (under `● Bash(cat …)`) or in the
 * agent's answer (`● …`, every line indented) are what the agent shows, not a limit; a wake Drover
 * types, whose echo wraps, holds no `⎿` (see wakeText.ts). A limit that ends a turn elsewhere reaches
 * Drover through the StopFailure hook.
 */
const CLAUDE: AgentProfileInput = {
  id: 'claude',
  name: 'Claude Code',
  command: 'claude',
  args: [],
  env: {},
  promptPattern: String.raw`^─{20,}\n❯\u00a0(?:[ \u00a0]*|Resend your message to try again)\n─{20,}$`,
  busyPattern: anyOf(String.raw`^[·✢*✶✻✽✳] \S[^\n]*…`, String.raw`^[·✢*✶✻✽✳] API error · Retrying in`),
  needsInputPattern: anyOf(
    String.raw`Do you want to proceed\?`,
    String.raw`Esc to cancel · Tab to amend`,
    String.raw`Enter to confirm · Esc to cancel`,
    String.raw`Do you want to use this API key\?`,
    String.raw`Is this a project you created or one you trust\?`,
    String.raw`Press Enter to continue…?$`,
    String.raw`Choose the text style that looks best with your terminal`,
    String.raw`What do you want to do\?`,
    String.raw`Enter to stay in auto mode`,
    String.raw`^ +❯ \d+\. `,
  ),
  usageLimitPattern: String.raw`^❯ [^\n]*(?:\n  (?!⎿)[^\n]*)*\n  ⎿[ \u00a0]+(?:` +
    anyOf(
      String.raw`You've hit your [^\n]*limit`,
      String.raw`You've reached your [^\n]*limit`,
      String.raw`You're out of usage credits`,
      String.raw`Your org is out of usage`,
      String.raw`API Error: Request rejected \(429\)`,
    ) +
    ')',
  quietMs: 800,
  integration: 'claude',
  wakeAs: 'prompt',
};

/**
 * Codex CLI, from its screens as 0.171.0 draws them (test-support/realCli/screens/codex-*): the
 * composer `› Ask Codex to do anything` (empty) with the model and folder two rows below (the
 * start-up splash and every dialog lack that footer); `› 1. …` is a dialog option, never the
 * prompt. Its own status reports (OSC 7501) say busy and ready; the screen shows dialogs and
 * limits ("■ You’ve hit your usage limit. Try again at 1:46 PM.", at the left edge, where only Codex
 * draws: the agent's answers (`• …`) and its commands' output (`  └ …`) are indented).
 */
const CODEX: AgentProfileInput = {
  id: 'codex',
  name: 'Codex CLI',
  command: 'codex',
  args: [],
  env: {},
  promptPattern: String.raw`^› Ask Codex to do anything\s*\n\s*\n  \S[^\n]* · [/~]`,
  busyPattern: String.raw`^[•◦] (Working|Reconnecting\.\.\. \d+/\d+) \([^\n]*esc to interrupt\)`,
  needsInputPattern: anyOf(
    String.raw`Would you like to run the following command\?`,
    String.raw`Allow the \S+ MCP server to run tool`,
    String.raw`Press enter to confirm or esc to cancel`,
    String.raw`enter to submit \| esc to cancel`,
    String.raw`Trust this folder\?`,
    String.raw`enter continue · esc back`,
    String.raw`Meet GPT-`,
    String.raw`enter/esc confirm`,
    String.raw`Approaching rate limits`,
    String.raw`enter select · esc back`,
    String.raw`Hooks need review`,
    String.raw`enter confirm · esc skip`,
    String.raw`Agent command center`,
    String.raw`Sign in with ChatGPT`,
    String.raw`\? / esc close`,
  ),
  usageLimitPattern: anyOf(String.raw`^■ You[’']ve hit your usage limit`, String.raw`^■ Your workspace is out of credits`, String.raw`^■ You hit your spend cap`),
  quietMs: 800,
  integration: 'codex',
  wakeAs: 'prompt',
};

/**
 * Gemini CLI, from its screens as 0.61.0 draws them (test-support/realCli/screens/gemini-*): the
 * empty input box ` >   Type your message or @path/to/file` stays on screen while busy, under
 * "⠸ Thinking... (esc to cancel, 19s)"; every dialog replaces it and offers numbered options
 * (`● 1. Allow once`). A usage limit is a dialog too: "Usage limit reached for all Pro models."
 * with "Access resets at 1:01 PM UTC." on the next line when the quota says when. A dialog takes
 * the input box's place, so the words count only in the last box on screen with no input below
 * them: a tool's output box holding them is history above the input, or above the next dialog.
 */
const GEMINI: AgentProfileInput = {
  id: 'gemini',
  name: 'Gemini CLI',
  command: 'gemini',
  args: [],
  env: {},
  promptPattern: String.raw`^ > {3}Type your message or @path/to/file *$`,
  busyPattern: anyOf(String.raw`\(esc to cancel, [0-9hms ]+\)`, String.raw`Resuming session\.\.\.`),
  needsInputPattern: anyOf(
    String.raw`Do you trust the files in this folder\?`,
    String.raw`How would you like to authenticate`,
    String.raw`Enter Gemini API Key`,
    String.raw`Allow execution of `,
    String.raw`Action Required`,
    String.raw`Usage limit reached for `,
    String.raw`We are currently experiencing high demand\.`,
    String.raw`^\s*│ ● \d+\. `,
    String.raw`Press Ctrl\+C again to exit\.`,
  ),
  usageLimitPattern: String.raw`^│ Usage limit reached for [^\n│]*(?![\s\S]*(?:╭|^ > ))`,
  quietMs: 800,
  integration: 'gemini',
  wakeAs: 'prompt',
};

/**
 * GitHub Copilot CLI, from its screens as 1.0.102 draws them (test-support/realCli/screens/copilot-*):
 * the input `❯` between two full-width rules, with the footer "… · / commands · ? help …" under
 * them while it is empty and idle; while busy the footer is "◉ Working · … esc esc interrupt".
 * Every dialog (folder trust, a command or tool approval) ends with "↑/↓ to navigate · enter to
 * select · esc to cancel". A provider's 429 ends the turn with "✗ 429 <message>" (no reset time);
 * "You've been rate limited on the current model" is the body of the dialog it opens for its own
 * Copilot plans (read from its bundle: it cannot be shown offline, see the README), drawn as every
 * dialog at the left edge: its top border, the title "Switch to auto mode?", a rule (one column in
 * from each side, as its recorded approval dialogs draw it; any inset and blank rows around it are
 * taken, should another release draw them otherwise), then the body.
 * It counts only there, in the last box on screen with no input box below it (a dialog takes the
 * input's place): what an agent shows in a dialog (a command to approve) sits in a box inside it. The
 * `✗` of an error sits one column in, as Copilot draws its own lines (`● …`); a command's output is
 * indented further.
 */
const COPILOT: AgentProfileInput = {
  id: 'copilot',
  name: 'GitHub Copilot CLI',
  command: 'copilot',
  args: [],
  env: {},
  promptPattern: String.raw`^─{20,}\n❯ *\n─{20,}\n [^\n]*· / commands · `,
  busyPattern: String.raw`^ \S Working\b[^\n]* esc`,
  needsInputPattern: anyOf(
    String.raw`Do you trust the files in this folder\?`,
    String.raw`Do you want to run this command\?`,
    String.raw`Do you want to use this tool\?`,
    String.raw`↑/↓ to navigate · enter to select · esc to cancel`,
    String.raw`You've been rate limited on the current model`,
  ),
  usageLimitPattern: anyOf(String.raw`^ ✗ 429 `, String.raw`^╭─+╮\n│ Switch to auto mode\? *│\n(?:│ *│\n)*│ *─+ *│\n(?:│ *│\n)*│ You've been rate limited on the current model(?![\s\S]*(?:╭|^─{20,}\n❯))`),
  quietMs: 800,
  integration: 'copilot',
  wakeAs: 'prompt',
};

/**
 * OpenCode, from its screens as 1.18.33 draws them (test-support/realCli/screens/opencode-*): the
 * input box is a bar-edged block, its text row (empty, or the start page's `Ask anything… "…"`)
 * between two empty rows, above the agent and model (`┃  Build · Fake Sonnet`) and a rule of `▀`.
 * A turn's footer says `esc interrupt`; a permission dialog replaces the input box ("△ Permission
 * required" over "Allow once   Allow always   Reject"). A failed call it retries shows its message
 * and the wait in the footer, the row under the input box ("You exceeded your current quota.
 * [retrying in 2h 59m attempt #1]"): a wait of minutes or more is a usage limit (a 429's
 * `retry-after`), seconds a passing error. The box's bottom edge (`╹▀▀…`) sits two columns in, where
 * nothing the agent shows reaches (its answers and tools' output are five columns in), so the same
 * words anywhere else, under a copy of that edge too, are what the agent shows.
 * Its spinner keeps drawing, so the screen is seldom read while it waits: Drover's plugin (see
 * opencodeLaunch.ts) reports that wait with its end, and a prompt going in, idle, a permission
 * asked and a failed turn.
 */
const OPENCODE: AgentProfileInput = {
  id: 'opencode',
  name: 'OpenCode',
  command: 'opencode',
  args: [],
  env: {},
  promptPattern: String.raw`^ *┃ *\n *┃(?: *| {2}Ask anything…[^\n]*)\n *┃ *\n *┃ {2}\S[^\n]* · [^\n]*\n *╹▀{20,}`,
  busyPattern: String.raw`esc (?:again to )?interrupt`,
  needsInputPattern: anyOf(String.raw`△ Permission required`, String.raw`Allow once +Allow always +Reject`),
  usageLimitPattern: String.raw`(?<=^ {0,3}╹▀{20,} *\n[^\n]*)\[retrying in (?:\d+[dhm] )+(?:\d+s )?attempt #\d+\]`,
  quietMs: 800,
  integration: 'opencode',
  wakeAs: 'prompt',
};

/**
 * Profiles shipped with Drover. The CLI's own signals come first where it offers them; the screen
 * patterns (each tested against the whole visible screen) say what those do not, and people can
 * copy a profile to adjust them when a CLI's screen changes.
 */
export const BUILT_IN_PROFILES: readonly AgentProfileInput[] = [
  CLAUDE,
  CODEX,
  {
    id: 'aider',
    name: 'Aider',
    command: 'aider',
    args: [],
    env: {},
    promptPattern: String.raw`^[\w./-]*> ?$` + ON_LAST_LINE,
    busyPattern: 'Waiting for|Thinking',
    needsInputPattern: String.raw`\(Y\)es/\(N\)o`,
    usageLimitPattern: 'RateLimitError',
    quietMs: 1000,
    integration: 'none',
    wakeAs: 'prompt',
  },
  GEMINI,
  COPILOT,
  OPENCODE,
  {
    id: 'shell',
    name: 'Shell',
    command: '$SHELL',
    args: [],
    env: {},
    promptPattern: '[$#%>] ?$' + ON_LAST_LINE,
    busyPattern: null,
    needsInputPattern: null,
    usageLimitPattern: null,
    quietMs: 400,
    integration: 'none',
    wakeAs: 'shell-note',
  },
];
