import type http from 'node:http';
import { randomUUID } from 'node:crypto';
import { ScriptedModelServer, type ModelProtocol, type ModelTurn, type OfferedTools, type RecordedRequest } from './scriptedModelServer';
import { DROVER_TOOL_NAMES } from '../../shared/droverTools';

/**
 * The Anthropic Messages API as Claude Code 2.1.197 calls it (`ANTHROPIC_BASE_URL`), for
 * {@link ScriptedModelServer}. Recorded from the real CLI:
 *
 * - Every model call is `POST /v1/messages?beta=true`. A conversation turn streams (`"stream":
 *   true`, SSE) and offers tools (37 of them with Drover's MCP server, which the model sees as
 *   `mcp__drover__run_in_background` etc.). A subagent's turn (the Agent tool) looks the same plus
 *   the header `x-claude-code-agent-id`; it is answered from the script too, since the model's
 *   answer decides what the subagent does.
 * - Side calls: the session title (streamed, `tools: []`, `output_config.format` a JSON schema with
 *   `title`), the quota probe (not streamed, `max_tokens: 1`, one user message "quota"; sent only
 *   when nonessential traffic is allowed) and `HEAD /` (connectivity). They get canned answers and
 *   never take a scripted turn.
 * - Each retry of a failed call is a new request (header `x-stainless-retry-count`), so it takes
 *   the next scripted turn: start the CLI with `CLAUDE_CODE_MAX_RETRIES=0` (see claudeHome.ts) so
 *   one `error` turn is one failure.
 * - Claude Code 2.1.332 defers most tools, MCP ones among them: `tools` holds its core tools,
 *   `ToolSearch` and a `DeferredToolPlaceholder` (`defer_loading: true`), and a system text lists
 *   the rest ("The following deferred tools are now available via ToolSearch. … mcp__drover__…").
 *   The model calls `ToolSearch` with `select:<name>`; the CLI answers with a `tool_reference`
 *   block and sends that tool's definition (still `defer_loading`) from the next request on. A scripted call to a deferred
 *   tool does that search first, as a model must (one script turn, two requests); a call to a tool
 *   neither offered nor deferred is answered with a text saying so, since a model cannot make it.
 */
export interface AnthropicProtocolOptions {
  /** How long to hold a turn's answer before writing it (to see the CLI busy). Default 0. */
  holdMs?: number | ((turn: ModelTurn, request: RecordedRequest) => number);
  /**
   * Headers sent with every answer (turns and side calls), e.g. the plan-usage headers from
   * {@link unifiedLimitHeaders} that feed Claude's status line `rate_limits` and its "You've used 91%
   * of your session limit" / "Approaching session limit" warnings. Read per request.
   */
  extraHeaders?: Record<string, string> | (() => Record<string, string>);
  /** How the `rate-limit` turn's 429 describes the spent quota. Read per turn. */
  rateLimit?: {
    /** Which window ran out; default `five_hour` ("You've hit your session limit"). */
    claim?: UnifiedLimitClaim;
    /**
     * `anthropic-ratelimit-unified-upgrade-paths`. Without it Claude Code (any plan but Max 20x)
     * opens its "What do you want to do?" menu (/rate-limit-options) after printing the limit; with
     * a value naming neither `upgrade_plan` nor `overage` (e.g. `['none']`) it only prints the limit.
     */
    upgradePaths?: string[];
  };
  /**
   * The name the CLI knows a scripted tool by (default {@link claudeToolName}); other CLIs on the
   * Messages API (GitHub Copilot CLI, OpenCode with an Anthropic provider) name their tools their own way.
   */
  toolName?: (name: string) => string;
}

/** Claude's plan-limit windows, as `anthropic-ratelimit-unified-representative-claim` names them. */
export type UnifiedLimitClaim = 'five_hour' | 'seven_day' | 'seven_day_opus' | 'seven_day_sonnet';

/** Drover's MCP tools; a turn may name them bare, the CLI knows them as `mcp__drover__<name>`. */
const DROVER_TOOLS = new Set<string>(DROVER_TOOL_NAMES);

interface MessagesBody {
  model?: string;
  max_tokens?: number;
  stream?: boolean;
  tools?: unknown[];
  messages?: { role: string; content: unknown }[];
  system?: unknown;
  output_config?: { format?: unknown };
}

type Block = { type: 'text'; text: string } | { type: 'tool_use'; name: string; input: Record<string, unknown>; id?: string };

function asMessagesBody(body: unknown): MessagesBody {
  return body && typeof body === 'object' ? (body as MessagesBody) : {};
}

function pathOf(request: RecordedRequest): string {
  return request.url.split('?')[0] ?? request.url;
}

/** A model turn: a `/v1/messages` call that offers the model tools (main conversation or subagent). */
export function isAnthropicTurn(request: RecordedRequest): boolean {
  if (request.method !== 'POST' || pathOf(request) !== '/v1/messages') return false;
  const body = asMessagesBody(request.body);
  if ((body.max_tokens ?? 0) <= 1) return false;
  return Array.isArray(body.tools) && body.tools.length > 0;
}

/** Every string inside a JSON value (system blocks, message texts). */
function stringsOf(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(stringsOf);
  if (value && typeof value === 'object') return Object.values(value).flatMap(stringsOf);
  return [];
}

/** Blocks of the conversation's messages, in order. */
function messageBlocks(body: MessagesBody): Record<string, unknown>[] {
  return (body.messages ?? []).flatMap((message) => (Array.isArray(message.content) ? (message.content as Record<string, unknown>[]) : []));
}

const DEFERRED_TOOL_LIST = /deferred tools are now available via ToolSearch[^\n]*\n((?:[\w-]+\n)+)/g;

/**
 * What a Messages request offers the model: the names Claude Code lists as loadable through
 * ToolSearch (deferred), the tools ToolSearch loaded earlier in the conversation (its
 * `tool_reference` results; the CLI sends their definitions with `defer_loading: true`, which the
 * API expands for a referenced tool), and so the callable ones: `tools` without `defer_loading`,
 * and the loaded ones.
 */
export function anthropicTools(request: RecordedRequest): OfferedTools {
  const body = asMessagesBody(request.body);
  const tools = (body.tools ?? []) as { name?: unknown; defer_loading?: unknown }[];
  const said = [...stringsOf(body.system), ...stringsOf(body.messages)].join('\n');
  const deferred = [...new Set([...said.matchAll(DEFERRED_TOOL_LIST)].flatMap((match) => (match[1] ?? '').split('\n').filter(Boolean)))];
  const loaded = messageBlocks(body)
    .filter((block) => block.type === 'tool_result' && Array.isArray(block.content))
    .flatMap((block) => (block.content as Record<string, unknown>[]).flatMap((part) => (part.type === 'tool_reference' && typeof part.tool_name === 'string' ? [part.tool_name] : [])));
  const callable = tools.flatMap((tool) => (typeof tool.name === 'string' && (tool.defer_loading !== true || loaded.includes(tool.name)) ? [tool.name] : []));
  return { callable, deferred, loaded };
}

/**
 * The text of the last user message that the person (or Drover's wake) typed, skipping tool results
 * and the CLI's own `<system-reminder>` / `<local-command-caveat>` blocks. Note Claude Code may put a
 * `system` role message after it (mid-conversation system reminders).
 */
export function lastUserText(request: RecordedRequest): string | undefined {
  const messages = asMessagesBody(request.body).messages ?? [];
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i];
    if (message?.role !== 'user') continue;
    const texts =
      typeof message.content === 'string'
        ? [message.content]
        : Array.isArray(message.content)
          ? (message.content as { type?: string; text?: string }[]).filter((block) => block.type === 'text').map((block) => block.text ?? '')
          : [];
    const typed = texts.filter((text) => !/^<(system-reminder|local-command-caveat|command-name|local-command-stdout)>/.test(text));
    if (typed.length > 0) return typed[typed.length - 1];
  }
  return undefined;
}

function headersOf(options: AnthropicProtocolOptions): Record<string, string> {
  const extra = typeof options.extraHeaders === 'function' ? options.extraHeaders() : options.extraHeaders;
  return { 'request-id': `req_${randomUUID().replaceAll('-', '')}`, ...extra };
}

function usage(inputTokens: number, outputTokens: number) {
  return { input_tokens: inputTokens, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: outputTokens };
}

const messageId = () => `msg_${randomUUID().replaceAll('-', '').slice(0, 24)}`;
const toolUseId = () => `toolu_${randomUUID().replaceAll('-', '').slice(0, 24)}`;

function sse(response: http.ServerResponse, event: string, data: unknown): void {
  response.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
}

/** Splits text into a few pieces so the CLI sees a real stream of deltas. */
function pieces(text: string, size: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out.length > 0 ? out : [''];
}

function outputTokens(blocks: Block[]): number {
  return 1 + blocks.reduce((sum, block) => sum + Math.ceil((block.type === 'text' ? block.text : JSON.stringify(block.input)).length / 4), 0);
}

function stopReason(blocks: Block[]): string {
  return blocks.some((block) => block.type === 'tool_use') ? 'tool_use' : 'end_turn';
}

/** message_start, per block content_block_start / *_delta / content_block_stop, message_delta, message_stop. */
function streamMessage(response: http.ServerResponse, headers: Record<string, string>, model: string, blocks: Block[]): void {
  response.writeHead(200, { ...headers, 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', connection: 'keep-alive' });
  sse(response, 'message_start', {
    type: 'message_start',
    message: { id: messageId(), type: 'message', role: 'assistant', model, content: [], stop_reason: null, stop_sequence: null, usage: usage(100, 1) },
  });
  sse(response, 'ping', { type: 'ping' });
  blocks.forEach((block, index) => {
    if (block.type === 'text') {
      sse(response, 'content_block_start', { type: 'content_block_start', index, content_block: { type: 'text', text: '' } });
      for (const piece of pieces(block.text, 40)) {
        sse(response, 'content_block_delta', { type: 'content_block_delta', index, delta: { type: 'text_delta', text: piece } });
      }
    } else {
      sse(response, 'content_block_start', {
        type: 'content_block_start',
        index,
        content_block: { type: 'tool_use', id: block.id ?? toolUseId(), name: block.name, input: {} },
      });
      for (const piece of pieces(JSON.stringify(block.input), 60)) {
        sse(response, 'content_block_delta', { type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: piece } });
      }
    }
    sse(response, 'content_block_stop', { type: 'content_block_stop', index });
  });
  sse(response, 'message_delta', {
    type: 'message_delta',
    delta: { stop_reason: stopReason(blocks), stop_sequence: null },
    usage: { output_tokens: outputTokens(blocks) },
  });
  sse(response, 'message_stop', { type: 'message_stop' });
  response.end();
}

/** The same message as one JSON body (the non-streaming form: quota probe, fallbacks). */
function plainMessage(response: http.ServerResponse, headers: Record<string, string>, model: string, blocks: Block[], maxTokens: number): void {
  const probe = maxTokens <= 1;
  response.writeHead(200, { ...headers, 'content-type': 'application/json' });
  response.end(
    JSON.stringify({
      id: messageId(),
      type: 'message',
      role: 'assistant',
      model,
      content: probe ? [] : blocks.map((block) => (block.type === 'text' ? block : { ...block, id: block.id ?? toolUseId() })),
      stop_reason: probe ? 'max_tokens' : stopReason(blocks),
      stop_sequence: null,
      usage: usage(10, probe ? 1 : outputTokens(blocks)),
    }),
  );
}

function errorType(status: number): string {
  const types: Record<number, string> = {
    400: 'invalid_request_error',
    401: 'authentication_error',
    403: 'permission_error',
    404: 'not_found_error',
    413: 'request_too_large',
    429: 'rate_limit_error',
    529: 'overloaded_error',
  };
  return types[status] ?? 'api_error';
}

/**
 * An API error as Anthropic writes it: `{"type":"error","error":{"type":…,"message":…}}`.
 * `x-should-retry: false` on a 429 keeps an API-key CLI from retrying (it would wait out
 * `retry-after`); a subscriber's CLI never retries a 429.
 */
function writeError(response: http.ServerResponse, headers: Record<string, string>, status: number, message: string): void {
  response.writeHead(status, { ...headers, 'content-type': 'application/json', 'x-should-retry': status >= 500 ? 'true' : 'false' });
  response.end(JSON.stringify({ type: 'error', error: { type: errorType(status), message } }));
}

/**
 * Claude's plan-limit headers. Claude Code reads them only for a claude.ai subscriber (OAuth, e.g.
 * `CLAUDE_CODE_OAUTH_TOKEN`), never with an API key:
 * - `anthropic-ratelimit-unified-status` (`allowed` | `allowed_warning` | `rejected`), `-reset`
 *   (epoch seconds), `-representative-claim` (the window: `five_hour` → "session limit",
 *   `seven_day` → "weekly limit", `seven_day_opus` → "Opus limit", `seven_day_sonnet` → "Sonnet
 *   limit");
 * - `-5h-utilization` + `-5h-reset`, `-7d-utilization` + `-7d-reset` (0..1, epoch seconds): the
 *   status line command's `rate_limits.five_hour` / `seven_day` (`used_percentage`, `resets_at`);
 * - `-5h-surpassed-threshold` (or `-7d-…`) on an allowed answer: the footer warning "You've used
 *   91% of your session limit · resets 4:18pm (Europe/Paris)" (with utilization) or "Approaching
 *   session limit · resets 2:49pm (Europe/Paris)" (without), shown for about 8 s.
 */
export function unifiedLimitHeaders(options: {
  status: 'allowed' | 'allowed_warning' | 'rejected';
  resetsAt: number;
  claim?: UnifiedLimitClaim;
  fiveHourUtilization?: number;
  sevenDayUtilization?: number;
  sevenDayResetsAt?: number;
  /** Sets `-5h-surpassed-threshold` (the "approaching" warning); e.g. 0.9. */
  fiveHourSurpassedThreshold?: number;
}): Record<string, string> {
  const headers: Record<string, string> = {
    'anthropic-ratelimit-unified-status': options.status,
    'anthropic-ratelimit-unified-reset': String(options.resetsAt),
  };
  if (options.claim) headers['anthropic-ratelimit-unified-representative-claim'] = options.claim;
  if (options.fiveHourUtilization !== undefined) {
    headers['anthropic-ratelimit-unified-5h-utilization'] = String(options.fiveHourUtilization);
    headers['anthropic-ratelimit-unified-5h-reset'] = String(options.resetsAt);
    headers['anthropic-ratelimit-unified-5h-status'] = options.fiveHourUtilization >= 1 ? 'rejected' : 'allowed';
  }
  if (options.fiveHourSurpassedThreshold !== undefined) {
    headers['anthropic-ratelimit-unified-5h-surpassed-threshold'] = String(options.fiveHourSurpassedThreshold);
    headers['anthropic-ratelimit-unified-5h-reset'] = String(options.resetsAt);
  }
  if (options.sevenDayUtilization !== undefined) {
    headers['anthropic-ratelimit-unified-7d-utilization'] = String(options.sevenDayUtilization);
    headers['anthropic-ratelimit-unified-7d-reset'] = String(options.sevenDayResetsAt ?? options.resetsAt);
    headers['anthropic-ratelimit-unified-7d-status'] = options.sevenDayUtilization >= 1 ? 'rejected' : 'allowed';
  }
  return headers;
}

/** Claude's name for a scripted tool: Drover's bare tool names become `mcp__drover__…`, `shell` is Bash. */
export function claudeToolName(name: string): string {
  if (DROVER_TOOLS.has(name)) return `mcp__drover__${name}`;
  if (name === 'shell') return 'Bash';
  return name;
}

/** A scripted shell call, as the CLIs' shell tools take it: with the description they show. */
function toolInput(scriptedName: string, input: Record<string, unknown>): Record<string, unknown> {
  if (scriptedName === 'shell' && typeof input.command === 'string' && input.description === undefined) {
    return { ...input, description: 'Run a command' };
  }
  return input;
}

function turnBlocks(turn: Extract<ModelTurn, { kind: 'text' | 'tool-call' }>, toolName: (name: string) => string, id?: string): Block[] {
  if (turn.kind === 'text') return [{ type: 'text', text: turn.text }];
  const name = toolName(turn.name);
  return [...(turn.text ? [{ type: 'text' as const, text: turn.text }] : []), { type: 'tool_use', name, input: toolInput(turn.name, turn.input), ...(id ? { id } : {}) }];
}

/** The tool search the model makes before `turn`, when it calls a tool the request only defers. */
function searchBefore(turn: ModelTurn, tools: OfferedTools, toolName: (name: string) => string): Extract<ModelTurn, { kind: 'tool-call' }> | undefined {
  if (turn.kind !== 'tool-call') return undefined;
  const name = toolName(turn.name);
  if (tools.callable.includes(name) || !tools.callable.includes('ToolSearch') || !tools.deferred.includes(name)) return undefined;
  return { kind: 'tool-call', name: 'ToolSearch', input: { query: `select:${name}` } };
}

/** A model only calls what it was offered: a call to any other tool becomes a text saying so. */
function callableTurn(turn: ModelTurn, tools: OfferedTools, toolName: (name: string) => string): ModelTurn {
  if (turn.kind !== 'tool-call' || tools.callable.length === 0) return turn;
  const name = toolName(turn.name);
  if (tools.callable.includes(name)) return turn;
  return { kind: 'text', text: `The scripted model cannot call ${name}: the request neither offers it nor defers it.` };
}

export function createAnthropicProtocol(options: AnthropicProtocolOptions = {}): ModelProtocol {
  const toolName = options.toolName ?? claudeToolName;
  const holdFor = (turn: ModelTurn, request: RecordedRequest): number =>
    typeof options.holdMs === 'function' ? options.holdMs(turn, request) : (options.holdMs ?? 0);

  /** Scripted tool calls waiting for the ToolSearch the model made on their behalf, by its tool_use id. */
  const afterSearch = new Map<string, ModelTurn>();
  const searchAnswered = (request: RecordedRequest): string | undefined => {
    const last = asMessagesBody(request.body).messages?.at(-1);
    if (last?.role !== 'user' || !Array.isArray(last.content)) return undefined;
    return (last.content as Record<string, unknown>[]).flatMap((block) => (block.type === 'tool_result' && typeof block.tool_use_id === 'string' && afterSearch.has(block.tool_use_id) ? [block.tool_use_id] : []))[0];
  };

  const answer = (turn: ModelTurn, request: RecordedRequest, response: http.ServerResponse, callId?: string): void => {
    const headers = headersOf(options);
    const body = asMessagesBody(request.body);
    const model = body.model ?? 'claude-sonnet-4-5';
    switch (turn.kind) {
      case 'text':
      case 'tool-call': {
        const blocks = turnBlocks(turn, toolName, callId);
        if (body.stream === true) streamMessage(response, headers, model, blocks);
        else plainMessage(response, headers, model, blocks, body.max_tokens ?? 1024);
        return;
      }
      case 'error':
        writeError(response, headers, turn.status, turn.message);
        return;
      case 'rate-limit': {
        const seconds = turn.retryAfterSeconds ?? 3 * 3600;
        const resetsAt = Math.floor(Date.now() / 1000) + seconds;
        const claim = options.rateLimit?.claim ?? 'five_hour';
        const upgradePaths = options.rateLimit?.upgradePaths;
        writeError(
          response,
          {
            ...headers,
            ...unifiedLimitHeaders({
              status: 'rejected',
              resetsAt,
              claim,
              ...(claim === 'five_hour' ? { fiveHourUtilization: 1 } : { sevenDayUtilization: 1, sevenDayResetsAt: resetsAt }),
            }),
            ...(upgradePaths ? { 'anthropic-ratelimit-unified-upgrade-paths': upgradePaths.join(',') } : {}),
            'retry-after': String(seconds),
          },
          429,
          turn.message,
        );
        return;
      }
    }
  };

  const respond = (turn: ModelTurn, request: RecordedRequest, response: http.ServerResponse, callId?: string): void => {
    const hold = holdFor(turn, request);
    if (hold > 0) setTimeout(() => answer(turn, request, response, callId), hold);
    else answer(turn, request, response, callId);
  };

  return {
    isTurn: (request) => isAnthropicTurn(request) && searchAnswered(request) === undefined,
    offeredTools: anthropicTools,
    writeTurn(turn, request, response) {
      const search = searchBefore(turn, request.tools, toolName);
      if (!search) {
        respond(callableTurn(turn, request.tools, toolName), request, response);
        return;
      }
      const searchId = toolUseId();
      afterSearch.set(searchId, turn);
      respond(search, request, response, searchId);
    },
    writeOther(request, response) {
      const path = pathOf(request);
      const headers = headersOf(options);
      const searched = searchAnswered(request);
      const waiting = searched ? afterSearch.get(searched) : undefined;
      if (searched && waiting) {
        afterSearch.delete(searched);
        respond(callableTurn(waiting, request.tools, toolName), request, response);
        return true;
      }
      if (request.method === 'HEAD' && path === '/') {
        response.writeHead(200, headers);
        response.end();
        return true;
      }
      if (request.method === 'POST' && path === '/v1/messages/count_tokens') {
        const size = JSON.stringify(request.body ?? '').length;
        response.writeHead(200, { ...headers, 'content-type': 'application/json' });
        response.end(JSON.stringify({ input_tokens: Math.max(1, Math.ceil(size / 4)) }));
        return true;
      }
      if (request.method === 'POST' && path === '/v1/messages') {
        const body = asMessagesBody(request.body);
        const model = body.model ?? 'claude-haiku-4-5';
        const blocks: Block[] = [{ type: 'text', text: sideAnswer(body) }];
        if (body.stream === true) streamMessage(response, headers, model, blocks);
        else plainMessage(response, headers, model, blocks, body.max_tokens ?? 1024);
        return true;
      }
      if (request.method === 'GET' && path === '/v1/models') {
        response.writeHead(200, { ...headers, 'content-type': 'application/json' });
        response.end(JSON.stringify({ data: [], has_more: false, first_id: null, last_id: null }));
        return true;
      }
      return false;
    },
  };
}

/** A short answer for a side call, in the shape it asks for (the title call wants JSON). */
function sideAnswer(body: MessagesBody): string {
  const schema = JSON.stringify(body.output_config?.format ?? '');
  const system = JSON.stringify(body.system ?? '');
  if (schema.includes('"title"') || (/json/i.test(system) && /title/i.test(system))) return '{"title": "Scripted session"}';
  return 'OK';
}

/** A started fake Anthropic server (close it with `server.close()`). */
export async function startFakeAnthropic(options: AnthropicProtocolOptions = {}): Promise<{ server: ScriptedModelServer; url: string }> {
  const server = new ScriptedModelServer(createAnthropicProtocol(options));
  const url = await server.listen();
  return { server, url };
}
