import type { MethodParams } from '../../shared/contract';
import type { AgentQuota, QuotaWindow } from '../../shared/entities/sessions';
import { MAX_TURN_PROMPT_CHARS } from '../../shared/turns';
import { agentCredentials } from './agentCredentials';
import { connectToDrover } from './socketClient';
import { withoutControls } from './terminalText';

export type HookReport = Omit<MethodParams<'reportAgentHook'>, 'agentId'>;
type Payload = Record<string, unknown>;

function readStdin(): Promise<string> {
  if (process.stdin.isTTY) return Promise.resolve('');
  return new Promise((resolve) => {
    let text = '';
    process.stdin.setEncoding('utf8');
    process.stdin.on('data', (chunk: string) => (text += chunk));
    process.stdin.on('end', () => resolve(text));
    process.stdin.on('error', () => resolve(text));
  });
}

function parseObject(text: string): Payload {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null ? (value as Payload) : {};
  } catch {
    return {};
  }
}

const text = (value: unknown, max: number): string | undefined => (typeof value === 'string' && value.length > 0 ? value.slice(0, max) : undefined);
const conversation = (payload: Payload) => text(payload.session_id, 200);

/** A prompt went in (Claude's and Codex's UserPromptSubmit, Gemini's BeforeAgent): its text names the turn. */
function promptSubmitted(payload: Payload): HookReport {
  return { event: 'prompt-submitted', externalSessionId: conversation(payload), prompt: text(payload.prompt, MAX_TURN_PROMPT_CHARS) };
}

/**
 * Claude Code 2.1.197's hooks (JSON on stdin, `hook_event_name`). A subagent's events carry
 * `agent_id` and say nothing of the main session, except its permission dialog, which shows on the
 * main screen. Only permission and MCP elicitation notifications wait for the person.
 */
function fromClaude(payload: Payload): HookReport | null {
  if (payload.agent_id !== undefined && payload.hook_event_name !== 'PermissionRequest') return null;
  switch (payload.hook_event_name) {
    case 'SessionStart':
      return { event: 'session-start' };
    case 'UserPromptSubmit':
      return promptSubmitted(payload);
    case 'Stop':
      return { event: 'stopped', externalSessionId: conversation(payload) };
    case 'StopFailure':
      return { event: 'stop-failed', externalSessionId: conversation(payload), error: text(payload.error, 100), message: text(payload.last_assistant_message, 4000) };
    case 'PermissionRequest':
      return { event: 'needs-input' };
    case 'Notification':
      return ['permission_prompt', 'elicitation_dialog', 'elicitation_url_dialog'].includes(String(payload.notification_type)) ? { event: 'needs-input' } : null;
    default:
      return null;
  }
}

/** Codex 0.171.0's hooks (Claude-compatible payloads); its other states come from the terminal. */
function fromCodex(payload: Payload): HookReport | null {
  switch (payload.hook_event_name) {
    case 'UserPromptSubmit':
      return promptSubmitted(payload);
    case 'Stop':
      return { event: 'stopped', externalSessionId: conversation(payload) };
    case 'PermissionRequest':
      return { event: 'needs-input' };
    default:
      return null;
  }
}

/**
 * Gemini CLI 0.61.0's hooks: BeforeAgent when a prompt goes in, AfterAgent when a turn completed,
 * Notification (only ever `ToolPermission`) when an approval dialog opens.
 */
function fromGemini(payload: Payload): HookReport | null {
  switch (payload.hook_event_name) {
    case 'BeforeAgent':
      return promptSubmitted(payload);
    case 'AfterAgent':
      return { event: 'stopped', externalSessionId: conversation(payload) };
    case 'Notification':
      return payload.notification_type === 'ToolPermission' ? { event: 'needs-input' } : null;
    default:
      return null;
  }
}

/** Copilot CLI's `errorOccurred` error: its message is the provider's error body (`{"type":"rate_limit_error","message":…}`) where it sent one. */
function providerError(error: unknown): { type?: unknown; message?: unknown } {
  const message = (error as { message?: unknown } | undefined)?.message;
  if (typeof message !== 'string') return {};
  const body = parseObject(message);
  return typeof body.type === 'string' ? body : { message };
}

/**
 * GitHub Copilot CLI 1.0.102's hooks (from Drover's plugin, see copilotLaunch.ts): camelCase
 * payloads without the event's name, so the hook command names it (`drover hook copilot <event>`).
 * `permissionRequest` fires also for a call a rule allows, before the rules are read, so the
 * notification that a permission dialog opened says needs input instead.
 * `errorOccurred` fires for every failed model call, retried ones too, and nothing follows the last
 * one, so an error ends the turn (the screen still shows a retry as busy, and Drover types into the
 * pane only at an idle prompt); a provider's 429 is not retried and is a usage limit.
 */
function fromCopilot(payload: Payload, event: string | undefined): HookReport | null {
  const externalSessionId = text(payload.sessionId, 200);
  switch (event) {
    case 'userPromptSubmitted':
      return { event: 'prompt-submitted', externalSessionId, prompt: text(payload.prompt, MAX_TURN_PROMPT_CHARS) };
    case 'agentStop':
      return { event: 'stopped', externalSessionId };
    case 'errorOccurred': {
      const error = providerError(payload.error);
      return { event: 'stop-failed', externalSessionId, error: error.type === 'rate_limit_error' ? 'rate_limit' : (text(error.type, 100) ?? 'api_error'), message: text(error.message, 4000) };
    }
    case 'notification':
      return payload.notification_type === 'permission_prompt' ? { event: 'needs-input' } : null;
    default:
      return null;
  }
}

/** A wait this long before OpenCode retries a call is a usage limit, not a passing error. */
const LIMIT_WAIT_MS = 60_000;

/** An instant as the limit lines of the CLIs name a reset, in this host's zone ("resets Dec 2, 2026, 20:31 (Europe/Paris)"). */
export function resetText(at: number): string {
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', { timeZone: zone, year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' })
      .formatToParts(new Date(at))
      .map((part) => [part.type, part.value]),
  );
  return `resets ${parts.month} ${parts.day}, ${parts.year}, ${parts.hour}:${parts.minute} (${zone})`;
}

/**
 * OpenCode 1.18.33, through Drover's plugin (profiles/opencodeLaunch.ts): `chat.message` when a
 * prompt goes in, `session.idle` at the end of a turn, `permission.asked` when a permission dialog
 * opens, `session.error` when a turn failed, and `session.status` retry when it waits to call the
 * model again: a wait of a minute or more is a usage limit until that instant (the minute after
 * it, so no wake comes early). The `session.status` busy after a retry is OpenCode going on by
 * itself: a turn, with no prompt of its own. A turn the person interrupts ends with an
 * `MessageAbortedError`, which is no failure.
 */
function fromOpencode(payload: Payload): HookReport | null {
  switch (payload.event) {
    case 'chat.message':
      return promptSubmitted(payload);
    case 'session.status': {
      if (payload.status === 'busy') return { event: 'prompt-submitted', externalSessionId: conversation(payload) };
      const next = typeof payload.next === 'number' && Number.isFinite(payload.next) ? payload.next : null;
      if (payload.status !== 'retry' || next === null || next - Date.now() < LIMIT_WAIT_MS) return null;
      const resetsAt = Math.ceil(next / 60_000) * 60_000;
      return { event: 'stop-failed', externalSessionId: conversation(payload), error: 'rate_limit', message: `${text(payload.message, 3000) ?? 'Rate limited'} · ${resetText(resetsAt)}` };
    }
    case 'session.idle':
      return { event: 'stopped', externalSessionId: conversation(payload) };
    case 'permission.asked':
      return { event: 'needs-input' };
    case 'session.error':
      return payload.error === 'MessageAbortedError' ? null : { event: 'stop-failed', externalSessionId: conversation(payload), error: text(payload.error, 100), message: text(payload.message, 4000) };
    default:
      return null;
  }
}

function quotaWindow(value: unknown): QuotaWindow | null {
  const window = value as { used_percentage?: unknown; resets_at?: unknown } | undefined;
  if (typeof window?.used_percentage !== 'number' || !Number.isFinite(window.used_percentage)) return null;
  const resetsAt = typeof window.resets_at === 'number' && Number.isFinite(window.resets_at) ? Math.round(window.resets_at * 1000) : null;
  return { usedPercent: Math.min(1000, Math.max(0, window.used_percentage)), resetsAt: resetsAt !== null && resetsAt > 0 ? resetsAt : null };
}

/** Claude Code's status line input carries `rate_limits` for subscribers (five-hour and weekly windows). */
export function quotaOf(payload: Payload): AgentQuota | null {
  const limits = payload.rate_limits as { five_hour?: unknown; seven_day?: unknown } | undefined;
  if (typeof limits !== 'object' || limits === null) return null;
  const quota = { fiveHour: quotaWindow(limits.five_hour), weekly: quotaWindow(limits.seven_day) };
  return quota.fiveHour || quota.weekly ? quota : null;
}

/** What Claude Code shows as its status line: whose agent this is, and the quota where known. */
export function statusLine(agentName: string | undefined, quota: AgentQuota | null): string {
  const parts = [`Drover agent ${withoutControls(agentName ?? '')}`.trim()];
  if (quota?.fiveHour) parts.push(`5h ${Math.round(quota.fiveHour.usedPercent)}%`);
  if (quota?.weekly) parts.push(`week ${Math.round(quota.weekly.usedPercent)}%`);
  return parts.join(' · ');
}

const PARSERS: Record<string, (payload: Payload, event: string | undefined) => HookReport | null> = {
  claude: fromClaude,
  codex: fromCodex,
  gemini: fromGemini,
  copilot: fromCopilot,
  opencode: fromOpencode,
  'claude-status-line': (payload) => {
    const quota = quotaOf(payload);
    return quota ? { event: 'quota', quota } : null;
  },
};

/** What a hook invocation reports (`event`: the hook's name where the CLI's payload lacks it), or null when there is nothing to report. */
export function parseHook(cli: string, stdin: string, event?: string): HookReport | null {
  return PARSERS[cli]?.(parseObject(stdin), event) ?? null;
}

/**
 * `drover hook CLI [EVENT]`: run by an agent CLI's own hooks (JSON on stdin). It reports to Drover and exits
 * 0 without output (the status line prints its line), so an agent run outside Drover, or a Drover
 * that went away, is never disturbed.
 */
export async function hookCommand(args: string[], env: NodeJS.ProcessEnv): Promise<number> {
  const [cli, event] = args;
  const socketPath = env.DROVER_SOCKET;
  const agentId = env.DROVER_AGENT_ID;
  const statusLineWanted = cli === 'claude-status-line';
  if (!cli || (!statusLineWanted && (!socketPath || !agentId))) return 0;
  const stdin = await readStdin();
  if (statusLineWanted) process.stdout.write(`${statusLine(env.DROVER_AGENT_NAME, quotaOf(parseObject(stdin)))}\n`);
  const report = parseHook(cli, stdin, event);
  if (!report || !socketPath || !agentId) return 0;
  try {
    const client = await connectToDrover(socketPath, {}, { agent: agentCredentials(env) });
    try {
      await client.rpc.call('reportAgentHook', { agentId, ...report });
    } finally {
      client.close();
    }
  } catch {
    // Silent by design: a hook must never break the agent that runs it.
  }
  return 0;
}
