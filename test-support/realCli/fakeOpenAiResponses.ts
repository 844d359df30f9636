import type http from 'node:http';
import { ScriptedModelServer, type ModelProtocol, type ModelTurn, type OfferedTools, type RecordedRequest } from './scriptedModelServer';

/**
 * The OpenAI Responses API as Codex CLI 0.171 uses it through a custom model provider
 * (`wire_api = "responses"` in a temporary CODEX_HOME): `POST {base_url}/responses` streamed as
 * SSE. Everything here was seen on the wire with the real CLI (research for issue 9):
 *
 * - A turn request carries `thread-id` / `session-id` headers (the conversation id) and
 *   `x-codex-turn-metadata` (JSON with `thread_source`, `turn_id`, ...).
 * - With the first prompt Codex may ask for a thread title in a separate, ephemeral thread
 *   (`thread_source: "thread_title"`, a JSON-schema output format): a side request, answered with
 *   `{"title": …}` and never taken from the script.
 * - MCP tools are not in `tools[]`: Codex lists their namespaces ("Deferred tool namespaces:
 *   mcp__drover") and offers a client-side `tool_search`. The model calls `tool_search`, Codex
 *   answers with a `tool_search_output` holding the `mcp__drover` namespace, and the model then
 *   calls `{"type":"function_call","namespace":"mcp__drover","name":"run_in_background",…}`.
 *   A scripted tool call to an MCP tool does that search on its own (one script turn, two
 *   requests), unless `autoToolSearch` is false.
 * - The shell tool of Codex 0.171 is `exec_command` (`cmd`, `sandbox_permissions`,
 *   `justification`); a scripted `shell` call is mapped to it.
 * - A 500 is retried (5 HTTP attempts × 6 stream attempts, about 25 s), a 503 with
 *   `server_is_overloaded` 5 times; a 429 `usage_limit_reached` is final at once.
 */

export interface ResponsesProtocolOptions {
  /**
   * Pause (ms) between the streamed events of a turn, so a test can see the CLI busy. Read at each
   * turn, so a test may change it between turns.
   */
  eventDelayMs?: number;
  /**
   * `plan_type` of the 429 usage-limit body; Codex words the limit by plan. `plus` (the default)
   * prints "You’ve hit your usage limit. Upgrade to Pro (…), visit … to purchase more credits or
   * try again at 3:05 PM." (or "… at Dec 1st, 2026 3:05 PM." when the reset is on another day);
   * null (no plan, as for Enterprise/Edu) prints "You’ve hit your usage limit. Try again at 3:05 PM.".
   */
  rateLimitPlanType?: string | null;
  /** Search MCP tools with `tool_search` before calling them (as a real model must); default true. */
  autoToolSearch?: boolean;
  /** The model name reported back (defaults to the request's `model`). */
  model?: string;
}

export interface ResponsesProtocol extends ModelProtocol {
  /** Mutable: changes apply from the next turn on. */
  readonly options: ResponsesProtocolOptions;
}

interface JsonObject {
  [key: string]: unknown;
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function pathOf(url: string): string {
  return url.split('?')[0] ?? url;
}

function inputItems(request: RecordedRequest): JsonObject[] {
  const body = request.body;
  return isObject(body) && Array.isArray(body.input) ? body.input.filter(isObject) : [];
}

/** A function tool the model may call; MCP tools live in a namespace (`mcp__drover`). */
export interface OfferedTool {
  name: string;
  namespace?: string;
}

function collectTools(list: unknown, into: OfferedTool[], namespace?: string): void {
  if (!Array.isArray(list)) return;
  for (const tool of list) {
    if (!isObject(tool)) continue;
    if (tool.type === 'namespace' && typeof tool.name === 'string') collectTools(tool.tools, into, tool.name);
    else if (typeof tool.name === 'string') into.push(namespace ? { name: tool.name, namespace } : { name: tool.name });
  }
}

/**
 * The function tools the model may call in a request: `tools[]`, plus the namespaced tools a
 * client-side `tool_search` loaded earlier in the conversation (`tool_search_output` items).
 */
export function offeredTools(request: RecordedRequest): OfferedTool[] {
  const body = request.body;
  const tools: OfferedTool[] = [];
  if (!isObject(body)) return tools;
  collectTools(body.tools, tools);
  for (const item of inputItems(request)) if (item.type === 'tool_search_output') collectTools(item.tools, tools);
  return tools;
}

/** The names of the tools the model may call (namespaced ones as `mcp__drover__run_in_background`). */
export function offeredToolNames(request: RecordedRequest): string[] {
  return offeredTools(request).map((tool) => (tool.namespace ? `${tool.namespace}__${tool.name}` : tool.name));
}

/** The deferred tool namespaces Codex announces to the model ("Deferred tool namespaces: - mcp__drover"). */
export function deferredNamespaces(request: RecordedRequest): string[] {
  const text = JSON.stringify(inputItems(request));
  const block = /Deferred tool namespaces:(.*?)<\/tools>/su.exec(text)?.[1] ?? '';
  return [...block.matchAll(/- (mcp__[\w-]+)/gu)].map((match) => match[1] ?? '');
}

/**
 * What a Responses request offers the model: its callable tools (namespaced MCP tools as
 * `mcp__drover__run_in_background`), the namespaces Codex defers, and the tools its `tool_search`
 * loaded earlier in the conversation.
 */
export function responsesTools(request: RecordedRequest): OfferedTools {
  const loaded: OfferedTool[] = [];
  for (const item of inputItems(request)) if (item.type === 'tool_search_output') collectTools(item.tools, loaded);
  return { callable: offeredToolNames(request), deferred: deferredNamespaces(request), loaded: loaded.map((tool) => (tool.namespace ? `${tool.namespace}__${tool.name}` : tool.name)) };
}

function offersToolSearch(request: RecordedRequest): boolean {
  const body = request.body;
  return isObject(body) && Array.isArray(body.tools) && body.tools.some((tool) => isObject(tool) && tool.type === 'tool_search');
}

function messageText(item: JsonObject): string {
  if (!Array.isArray(item.content)) return '';
  return item.content
    .filter(isObject)
    .map((part) => (typeof part.text === 'string' ? part.text : ''))
    .join('');
}

/** Codex's own context items, sent with the user role; never a prompt. */
function isContextText(text: string): boolean {
  return /^<(environment_context|user_instructions|turn_aborted|permissions instructions)>|^# AGENTS\.md/u.test(text);
}

/** The user messages of a request, in order, without Codex's own context items. */
export function userTexts(request: RecordedRequest): string[] {
  return inputItems(request)
    .filter((item) => item.type === 'message' && item.role === 'user')
    .map(messageText)
    .filter((text) => !isContextText(text));
}

/** The last user message of a request: the prompt, or the wake Drover typed. */
export function lastUserText(request: RecordedRequest): string | undefined {
  return userTexts(request).at(-1);
}

/** Codex's metadata header of a Responses request (JSON): `thread_source`, `turn_id`, `history_initialization`. */
export function turnMetadata(request: RecordedRequest): JsonObject | undefined {
  const header = request.headers['x-codex-turn-metadata'];
  if (typeof header !== 'string') return undefined;
  try {
    const parsed: unknown = JSON.parse(header);
    return isObject(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Why a Responses request is not a conversation turn, or undefined for a main turn: the thread
 * title Codex asks for in its own thread, a subagent request, or any structured-output request.
 */
export function sideRequestKind(request: RecordedRequest): string | undefined {
  if (turnMetadata(request)?.thread_source === 'thread_title') return 'thread_title';
  const subagent = request.headers['x-openai-subagent'];
  if (typeof subagent === 'string') return `subagent:${subagent}`;
  const body = request.body;
  if (isObject(body) && isObject(body.text) && isObject(body.text.format) && body.text.format.type === 'json_schema') return 'structured_output';
  return undefined;
}

let counter = 0;
function nextId(prefix: string): string {
  counter += 1;
  return `${prefix}_${Date.now().toString(36)}${counter.toString(36).padStart(4, '0')}`;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

interface ResolvedTool {
  name: string;
  namespace?: string;
  input: Record<string, unknown>;
  /** False when the tool is not offered yet (a deferred MCP tool before its `tool_search`). */
  found: boolean;
}

/**
 * Finds the tool the script means: an exact name (or `namespace__name`); Codex's own shell tool for
 * `shell` (`exec_command`, with `cmd`); else a namespaced (MCP) tool of that name.
 */
function resolveTool(name: string, input: Record<string, unknown>, offered: OfferedTool[]): ResolvedTool {
  if (offered.some((tool) => !tool.namespace && tool.name === name)) return { name, input, found: true };
  const qualified = offered.find((tool) => tool.namespace && `${tool.namespace}__${tool.name}` === name);
  if (qualified) return { name: qualified.name, namespace: qualified.namespace, input, found: true };
  if (name === 'shell' || name === 'exec_command' || name === 'shell_command') {
    const command = input.command ?? input.cmd;
    const text = Array.isArray(command) ? command.map(String).join(' ') : String(command ?? '');
    const rest = { ...input };
    delete rest.command;
    delete rest.cmd;
    const has = (toolName: string) => offered.some((tool) => !tool.namespace && tool.name === toolName);
    if (has('exec_command')) return { name: 'exec_command', input: { cmd: text, ...rest }, found: true };
    if (has('shell_command')) return { name: 'shell_command', input: { command: text, ...rest }, found: true };
    if (has('shell')) return { name: 'shell', input: { command: ['bash', '-lc', text], ...rest }, found: true };
  }
  const namespaced = offered.find((tool) => tool.namespace && tool.name === name);
  if (namespaced) return { name, namespace: namespaced.namespace, input, found: true };
  return { name, input, found: false };
}

export function createResponsesProtocol(options: ResponsesProtocolOptions = {}): ResponsesProtocol {
  /** Tool calls waiting for the `tool_search` the protocol made on their behalf, by search call id. */
  const afterSearch = new Map<string, Extract<ModelTurn, { kind: 'tool-call' }>>();
  const isResponsesPost = (request: RecordedRequest) => request.method === 'POST' && pathOf(request.url).endsWith('/responses');
  const pendingSearch = (request: RecordedRequest): string | undefined => {
    const last = inputItems(request).at(-1);
    return last?.type === 'tool_search_output' && typeof last.call_id === 'string' && afterSearch.has(last.call_id) ? last.call_id : undefined;
  };

  return {
    options,
    offeredTools: responsesTools,

    isTurn(request) {
      if (!isResponsesPost(request) || !isObject(request.body) || !Array.isArray(request.body.input)) return false;
      return sideRequestKind(request) === undefined && pendingSearch(request) === undefined;
    },

    writeTurn(turn, request, response) {
      if (turn.kind === 'tool-call' && turn.name !== 'tool_search' && options.autoToolSearch !== false) {
        const tool = resolveTool(turn.name, turn.input, offeredTools(request));
        if (!tool.found && offersToolSearch(request)) {
          const callId = nextId('call');
          afterSearch.set(callId, turn);
          void streamTurn({ kind: 'tool-call', name: 'tool_search', input: { query: turn.name.replace(/^mcp__\w+?__/u, ''), limit: 8 } }, request, response, options, callId);
          return;
        }
      }
      void streamTurn(turn, request, response, options);
    },

    writeOther(request, response) {
      const path = pathOf(request.url);
      if (request.method === 'GET' && path.endsWith('/models')) {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ models: [] }));
        return true;
      }
      if (request.method === 'POST' && path.endsWith('/responses/compact')) {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ output: [] }));
        return true;
      }
      if (!isResponsesPost(request)) return false;
      const searched = pendingSearch(request);
      const turn = searched ? afterSearch.get(searched) : undefined;
      if (searched && turn) {
        afterSearch.delete(searched);
        void streamTurn(turn, request, response, options);
        return true;
      }
      // A side request (the thread title): answered at once so the CLI never waits on it.
      const text = sideRequestKind(request) === 'thread_title' ? JSON.stringify({ title: 'Scripted task' }) : 'Done.';
      void streamTurn({ kind: 'text', text }, request, response, { ...options, eventDelayMs: 0 });
      return true;
    },
  };
}

async function streamTurn(turn: ModelTurn, request: RecordedRequest, response: http.ServerResponse, options: ResponsesProtocolOptions, searchCallId?: string): Promise<void> {
  if (turn.kind === 'error') {
    // OpenAI's error body. A 503 carries `server_is_overloaded` ("Selected model is at capacity").
    const code = turn.status === 503 ? 'server_is_overloaded' : null;
    response.writeHead(turn.status, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ error: { message: turn.message, type: turn.status >= 500 ? 'server_error' : 'invalid_request_error', param: null, code } }));
    return;
  }
  if (turn.kind === 'rate-limit') {
    writeUsageLimit(turn, response, options);
    return;
  }

  const body = isObject(request.body) ? request.body : {};
  const model = options.model ?? (typeof body.model === 'string' ? body.model : 'gpt-5.5');
  const responseId = nextId('resp');
  let sequence = 0;
  const send = async (event: JsonObject) => {
    if (response.destroyed) return;
    response.write(`event: ${String(event.type)}\ndata: ${JSON.stringify({ ...event, sequence_number: sequence++ })}\n\n`);
    await sleep(options.eventDelayMs ?? 0);
  };
  const envelope = (status: string, output: JsonObject[], usage?: JsonObject) => ({
    id: responseId,
    object: 'response',
    created_at: Math.floor(Date.now() / 1000),
    status,
    model,
    output,
    ...(usage ? { usage } : {}),
  });

  response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
  await send({ type: 'response.created', response: envelope('in_progress', []) });
  await send({ type: 'response.in_progress', response: envelope('in_progress', []) });

  const output: JsonObject[] = [];
  const text = turn.text;
  if (text && !searchCallId) {
    const index = output.length;
    const itemId = nextId('msg');
    await send({ type: 'response.output_item.added', output_index: index, item: { id: itemId, type: 'message', status: 'in_progress', role: 'assistant', content: [] } });
    await send({ type: 'response.content_part.added', item_id: itemId, output_index: index, content_index: 0, part: { type: 'output_text', text: '', annotations: [] } });
    for (const chunk of text.match(/.{1,24}/gsu) ?? []) {
      await send({ type: 'response.output_text.delta', item_id: itemId, output_index: index, content_index: 0, delta: chunk });
    }
    await send({ type: 'response.output_text.done', item_id: itemId, output_index: index, content_index: 0, text });
    const part = { type: 'output_text', text, annotations: [] };
    await send({ type: 'response.content_part.done', item_id: itemId, output_index: index, content_index: 0, part });
    const item = { id: itemId, type: 'message', status: 'completed', role: 'assistant', content: [part] };
    await send({ type: 'response.output_item.done', output_index: index, item });
    output.push(item);
  }

  if (turn.kind === 'tool-call' && turn.name === 'tool_search') {
    // Codex's client-side tool search; Codex answers it with a `tool_search_output`.
    const index = output.length;
    const item = { id: nextId('ts'), type: 'tool_search_call', status: 'completed', call_id: searchCallId ?? nextId('call'), execution: 'client', arguments: turn.input };
    await send({ type: 'response.output_item.added', output_index: index, item: { ...item, status: 'in_progress' } });
    await send({ type: 'response.output_item.done', output_index: index, item });
    output.push(item);
  } else if (turn.kind === 'tool-call') {
    const tool = resolveTool(turn.name, turn.input, offeredTools(request));
    const index = output.length;
    const itemId = nextId('fc');
    const callId = nextId('call');
    const args = JSON.stringify(tool.input);
    const namespace = tool.namespace ? { namespace: tool.namespace } : {};
    await send({ type: 'response.output_item.added', output_index: index, item: { id: itemId, type: 'function_call', status: 'in_progress', name: tool.name, ...namespace, call_id: callId, arguments: '' } });
    await send({ type: 'response.function_call_arguments.delta', item_id: itemId, output_index: index, delta: args });
    await send({ type: 'response.function_call_arguments.done', item_id: itemId, output_index: index, arguments: args });
    const item = { id: itemId, type: 'function_call', status: 'completed', name: tool.name, ...namespace, call_id: callId, arguments: args };
    await send({ type: 'response.output_item.done', output_index: index, item });
    output.push(item);
  }

  const usage = {
    input_tokens: 1200,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: 40,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: 1240,
  };
  await send({ type: 'response.completed', response: envelope('completed', output, usage) });
  response.end();
}

/**
 * A 429 as the ChatGPT Codex backend sends it when the plan's quota is spent (body and headers as
 * the real backend sends them). Codex 0.171 reads `error.type == "usage_limit_reached"`,
 * `error.plan_type`, `error.resets_at` (epoch seconds, the time it prints), `x-codex-active-limit`,
 * the `x-codex-primary-*` / `x-codex-secondary-*` windows and `x-codex-credits-*` (shown as
 * "⚠ 5h limit: only <1% left · resets at 13:46 · /status") and `x-codex-promo-message`.
 */
function writeUsageLimit(turn: Extract<ModelTurn, { kind: 'rate-limit' }>, response: http.ServerResponse, options: ResponsesProtocolOptions): void {
  const now = Math.floor(Date.now() / 1000);
  const resetsIn = Math.max(1, Math.round(turn.retryAfterSeconds ?? 3 * 3600));
  const resetsAt = now + resetsIn;
  const planType = options.rateLimitPlanType === undefined ? 'plus' : options.rateLimitPlanType;
  const weekResetsIn = Math.max(resetsIn, 6 * 24 * 3600);
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'x-codex-active-limit': 'codex',
    'x-codex-primary-used-percent': '100',
    'x-codex-secondary-used-percent': '80',
    'x-codex-primary-window-minutes': '300',
    'x-codex-primary-over-secondary-limit-percent': '0',
    'x-codex-secondary-window-minutes': '10080',
    'x-codex-primary-reset-after-seconds': String(resetsIn),
    'x-codex-secondary-reset-after-seconds': String(weekResetsIn),
    'x-codex-primary-reset-at': String(resetsAt),
    'x-codex-secondary-reset-at': String(now + weekResetsIn),
    'x-codex-credits-has-credits': 'False',
    'x-codex-credits-balance': '0',
    'x-codex-credits-unlimited': 'False',
  };
  if (planType) headers['x-codex-plan-type'] = planType;
  const error: JsonObject = { type: 'usage_limit_reached', message: turn.message };
  if (planType) error.plan_type = planType;
  Object.assign(error, { resets_at: resetsAt, eligible_promo: null, resets_in_seconds: resetsIn });
  response.writeHead(429, headers);
  response.end(JSON.stringify({ error }));
}

/** A fake Responses server on 127.0.0.1; `url` is the provider's `base_url` (ends with `/v1`). */
export async function startFakeResponses(options: ResponsesProtocolOptions = {}): Promise<{ server: ScriptedModelServer; url: string; protocol: ResponsesProtocol }> {
  const protocol = createResponsesProtocol(options);
  const server = new ScriptedModelServer(protocol);
  const origin = await server.listen();
  return { server, url: `${origin}/v1`, protocol };
}
