import type http from 'node:http';
import { ScriptedModelServer, type ModelProtocol, type ModelTurn, type OfferedTools, type RecordedRequest } from './scriptedModelServer';
import { DROVER_TOOL_NAMES } from '../../shared/droverTools';

/**
 * The Gemini API (generativelanguage.googleapis.com, `v1beta`) as Gemini CLI 0.61.0 uses it with
 * `GOOGLE_GEMINI_BASE_URL` and `GEMINI_API_KEY`, through the @google/genai SDK it bundles:
 *
 * - `POST /v1beta/models/<model>:streamGenerateContent?alt=sse` is a conversation turn: the main
 *   chat (its body carries `tools` with `functionDeclarations` and a `systemInstruction`). The
 *   answer is SSE, one `data: <GenerateContentResponse>` event per chunk, the last one with
 *   `finishReason` and `usageMetadata`.
 * - `POST /v1beta/models/<model>:generateContent` is a side call, never answered from the script.
 *   With the default "Auto" model the CLI sends one before every turn: the model router's
 *   classifier (`gemini-3.5-flash-lite`, `responseJsonSchema` with `complexity_reasoning` and
 *   `complexity_score`). Other side calls (next-speaker check, loop detection, compression, summaries)
 *   also ask for JSON or text; each gets JSON fitting its schema (`next_speaker: "user"`), or text.
 * - `POST /v1beta/models/<model>:countTokens` answers `{ totalTokens }`, `GET /v1beta/models` a
 *   model list. Neither was seen from 0.61.0 with an API key, nor any Code Assist call
 *   (`loadCodeAssist` is only for Google sign-in).
 *
 * Errors have Google's JSON shape `{ error: { code, message, status, details } }`; the CLI parses
 * `details` (google.rpc.QuotaFailure / RetryInfo / ErrorInfo) to decide between retrying and
 * giving up with its "Usage limit reached for <model>." message.
 */
export interface GeminiProtocol extends ModelProtocol {
  /** Milliseconds a scripted turn is held before it is answered (to see the CLI busy). */
  turnDelayMs: number;
  /**
   * How a `rate-limit` turn describes the spent quota (Gemini CLI 0.61.0's reading of each, seen
   * with the Auto model and an API key):
   * - `daily`: the free tier's per-day quota (QuotaFailure `quotaId`
   *   `GenerateRequestsPerDayPerProjectPerModel-FreeTier`, plus RetryInfo). The CLI gives up at once
   *   and opens a dialog `Usage limit reached for all Pro models.` with NO reset time (a PerDay
   *   quota id makes it drop the retry delay), options `1. Keep trying` / `2. Stop`.
   * - `long-retry`: RetryInfo over 300 s and no per-day quota id. Same dialog with
   *   `Access resets at 3:06 PM GMT+1.` (now + retryDelay, en-US `h:mm AM/PM <short zone>`).
   * - `minute`: the per-minute quota with a short RetryInfo: retried silently, busy meanwhile.
   * - `auto` (the default): `long-retry` when the turn has `retryAfterSeconds` over 300, `minute`
   *   when it has a shorter one, `daily` when it has none.
   */
  rateLimitKind: 'auto' | 'daily' | 'long-retry' | 'minute';
}

const TURN_PATH = /^\/v1(?:beta|alpha)?\d*\/models\/([^/:?]+):streamGenerateContent(?:\?|$)/;
const GENERATE_PATH = /^\/v1(?:beta|alpha)?\d*\/models\/([^/:?]+):generateContent(?:\?|$)/;
const COUNT_TOKENS_PATH = /^\/v1(?:beta|alpha)?\d*\/models\/([^/:?]+):countTokens(?:\?|$)/;
const MODELS_PATH = /^\/v1(?:beta|alpha)?\d*\/models\/?(?:\?|$)/;
const MODEL_PATH = /^\/v1(?:beta|alpha)?\d*\/models\/([^/:?]+)\/?(?:\?|$)/;

const STATUS_NAMES: Record<number, string> = {
  400: 'INVALID_ARGUMENT',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  429: 'RESOURCE_EXHAUSTED',
  500: 'INTERNAL',
  503: 'UNAVAILABLE',
  504: 'DEADLINE_EXCEEDED',
};

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function modelOf(request: RecordedRequest, pattern: RegExp): string {
  return decodeURIComponent(pattern.exec(request.url)?.[1] ?? 'gemini-2.5-pro');
}

function usage(request: RecordedRequest, candidates: number): Json {
  const prompt = Math.max(1, Math.round(JSON.stringify(request.body ?? '').length / 4));
  return { promptTokenCount: prompt, candidatesTokenCount: candidates, totalTokenCount: prompt + candidates };
}

function responseChunk(model: string, parts: Json[], extra: Json = {}): Json {
  return {
    candidates: [{ content: { role: 'model', parts }, index: 0, ...('finishReason' in extra ? { finishReason: extra.finishReason } : {}) }],
    ...('usageMetadata' in extra ? { usageMetadata: extra.usageMetadata } : {}),
    modelVersion: model,
    responseId: `fake-${Date.now().toString(36)}`,
  };
}

function writeJson(response: http.ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json; charset=UTF-8' });
  response.end(JSON.stringify(body));
}

/** Google's error body for a status (what generativelanguage.googleapis.com answers). */
export function googleError(status: number, message: string, details: Json[] = []): Json {
  return { error: { code: status, message, status: STATUS_NAMES[status] ?? 'UNKNOWN', ...(details.length ? { details } : {}) } };
}

/**
 * The 429 the Gemini API sends when a free-tier quota is spent: status RESOURCE_EXHAUSTED, the
 * "You exceeded your current quota" message and google.rpc details, in the shape of the CLI's own
 * fixtures for the real API (packages/core/src/utils/googleQuotaErrors.test.ts). No Retry-After
 * header: the CLI reads only the body (`details[].retryDelay`, `quotaId`, ErrorInfo `reason`).
 */
export function quotaError(model: string, kind: Exclude<GeminiProtocol['rateLimitKind'], 'auto'>, retryAfterSeconds: number, message?: string): Json {
  const limit = kind === 'daily' ? '50' : '2';
  const text =
    message ??
    'You exceeded your current quota, please check your plan and billing details. For more information on this error, ' +
      'head to: https://ai.google.dev/gemini-api/docs/rate-limits. To monitor your current usage, head to: ' +
      'https://ai.dev/usage?tab=rate-limit. \n* Quota exceeded for metric: ' +
      `generativelanguage.googleapis.com/generate_content_free_tier_requests, limit: ${limit}, model: ${model}\n` +
      `Please retry in ${retryAfterSeconds}s.`;
  const quotaFailure = (quotaId: string): Json => ({
    '@type': 'type.googleapis.com/google.rpc.QuotaFailure',
    violations: [
      {
        quotaMetric: 'generativelanguage.googleapis.com/generate_content_free_tier_requests',
        quotaId,
        quotaDimensions: { location: 'global', model },
        quotaValue: limit,
      },
    ],
  });
  const details: Json[] = [];
  // A long retry names no per-day / per-minute quota: either would override the delay.
  if (kind === 'daily') details.push(quotaFailure('GenerateRequestsPerDayPerProjectPerModel-FreeTier'));
  if (kind === 'minute') details.push(quotaFailure('GenerateRequestsPerMinutePerProjectPerModel-FreeTier'));
  details.push(
    {
      '@type': 'type.googleapis.com/google.rpc.Help',
      links: [{ description: 'Learn more about Gemini API quotas', url: 'https://ai.google.dev/gemini-api/docs/rate-limits' }],
    },
    { '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: `${retryAfterSeconds}s` },
  );
  return googleError(429, text, details);
}

/** A value that fits a JSON schema, with the answers that keep the CLI's side calls quiet. */
function fitSchema(schema: unknown, key = ''): unknown {
  if (!isObject(schema)) return '';
  if (Array.isArray(schema.enum) && schema.enum.length > 0) {
    if (key === 'next_speaker' && schema.enum.includes('user')) return 'user';
    if (key === 'model_choice' && schema.enum.includes('flash')) return 'flash';
    return schema.enum[0];
  }
  const type = String(schema.type ?? '').toLowerCase();
  if (type === 'object' || isObject(schema.properties)) {
    const out: Json = {};
    for (const [name, sub] of Object.entries(isObject(schema.properties) ? schema.properties : {})) out[name] = fitSchema(sub, name);
    return out;
  }
  if (type === 'array') return [];
  if (type === 'boolean') return false;
  if (type === 'number' || type === 'integer') return key === 'complexity_score' ? 50 : 0;
  if (key === 'next_speaker') return 'user';
  if (key === 'reasoning') return 'Scripted fake model.';
  return '';
}

/** The answer to a `:generateContent` side call: JSON fitting its schema, or a short text. */
function sideAnswer(request: RecordedRequest): string {
  const body = isObject(request.body) ? request.body : {};
  const config = isObject(body.generationConfig) ? body.generationConfig : isObject(body.config) ? body.config : {};
  const schema = config.responseJsonSchema ?? config.responseSchema ?? config._responseJsonSchema;
  if (schema !== undefined) return JSON.stringify(fitSchema(schema));
  if (config.responseMimeType === 'application/json') return '{}';
  return 'Scripted fake model.';
}

/** Sends one SSE event the way the Gemini API does. */
function sse(response: http.ServerResponse, data: unknown): void {
  response.write(`data: ${JSON.stringify(data)}\r\n\r\n`);
}

/** Drover's MCP tools as the model sees them in Gemini CLI (`mcp_drover_<name>`). */
const DROVER_TOOLS = new Set<string>(DROVER_TOOL_NAMES);

/** Gemini's name for a scripted tool: Drover's bare tool names get their server prefix, `shell` is its shell tool. */
export function geminiToolName(name: string): string {
  if (DROVER_TOOLS.has(name)) return `mcp_drover_${name}`;
  if (name === 'shell') return 'run_shell_command';
  return name;
}

/** The text of the last user message the person (or Drover's wake) typed, skipping tool results. */
export function lastUserText(request: RecordedRequest): string | undefined {
  const contents = isObject(request.body) && Array.isArray(request.body.contents) ? (request.body.contents as Json[]) : [];
  for (let i = contents.length - 1; i >= 0; i--) {
    const content = contents[i];
    if (content?.role !== 'user' || !Array.isArray(content.parts)) continue;
    const texts = (content.parts as Json[]).flatMap((part) => (typeof part.text === 'string' ? [part.text] : []));
    if (texts.length > 0) return texts[texts.length - 1];
  }
  return undefined;
}

/** Gemini CLI offers every tool up front (`tools[].functionDeclarations`); nothing is deferred. */
export function geminiTools(request: RecordedRequest): OfferedTools {
  const tools = isObject(request.body) && Array.isArray(request.body.tools) ? (request.body.tools as Json[]) : [];
  const callable = tools.flatMap((tool) => (Array.isArray(tool.functionDeclarations) ? (tool.functionDeclarations as Json[]) : [])).flatMap((declaration) => (typeof declaration.name === 'string' ? [declaration.name] : []));
  return { callable, deferred: [], loaded: [] };
}

export function createGeminiProtocol(options: { turnDelayMs?: number; rateLimitKind?: GeminiProtocol['rateLimitKind'] } = {}): GeminiProtocol {
  const protocol: GeminiProtocol = {
    turnDelayMs: options.turnDelayMs ?? 0,
    rateLimitKind: options.rateLimitKind ?? 'auto',

    offeredTools: geminiTools,

    isTurn(request) {
      return request.method === 'POST' && TURN_PATH.test(request.url);
    },

    writeTurn(turn: ModelTurn, request, response) {
      const answer = () => {
        const model = modelOf(request, TURN_PATH);
        if (turn.kind === 'error') {
          writeJson(response, turn.status, googleError(turn.status, turn.message));
          return;
        }
        if (turn.kind === 'rate-limit') {
          const seconds = turn.retryAfterSeconds;
          const kind =
            protocol.rateLimitKind !== 'auto' ? protocol.rateLimitKind : seconds === undefined ? 'daily' : seconds > 300 ? 'long-retry' : 'minute';
          const retryAfter = seconds ?? (kind === 'minute' ? 30 : kind === 'daily' ? 38 : 3600);
          writeJson(response, 429, quotaError(model, kind, retryAfter, turn.message || undefined));
          return;
        }
        response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
        if (turn.kind === 'text') {
          const words = turn.text.split(/(?<= )/);
          const half = Math.ceil(words.length / 2);
          const first = words.slice(0, half).join('');
          const rest = words.slice(half).join('');
          sse(response, responseChunk(model, [{ text: first }]));
          sse(response, responseChunk(model, [{ text: rest }], { finishReason: 'STOP', usageMetadata: usage(request, Math.max(1, words.length)) }));
        } else {
          if (turn.text) sse(response, responseChunk(model, [{ text: turn.text }]));
          sse(
            response,
            responseChunk(model, [{ functionCall: { name: geminiToolName(turn.name), args: turn.input } }], {
              finishReason: 'STOP',
              usageMetadata: usage(request, 10),
            }),
          );
        }
        response.end();
      };
      if (protocol.turnDelayMs > 0) setTimeout(answer, protocol.turnDelayMs);
      else answer();
    },

    writeOther(request, response) {
      if (request.method === 'POST' && GENERATE_PATH.test(request.url)) {
        const model = modelOf(request, GENERATE_PATH);
        writeJson(
          response,
          200,
          responseChunk(model, [{ text: sideAnswer(request) }], { finishReason: 'STOP', usageMetadata: usage(request, 5) }),
        );
        return true;
      }
      if (request.method === 'POST' && COUNT_TOKENS_PATH.test(request.url)) {
        writeJson(response, 200, { totalTokens: Math.max(1, Math.round(JSON.stringify(request.body ?? '').length / 4)) });
        return true;
      }
      if (request.method === 'GET' && MODELS_PATH.test(request.url)) {
        const names = ['gemini-2.5-pro', 'gemini-2.5-flash', 'gemini-2.5-flash-lite', 'gemini-3-pro-preview', 'gemini-3-flash-preview'];
        writeJson(response, 200, {
          models: names.map((name) => ({
            name: `models/${name}`,
            displayName: name,
            supportedGenerationMethods: ['generateContent', 'countTokens'],
          })),
        });
        return true;
      }
      if (request.method === 'GET' && MODEL_PATH.test(request.url)) {
        const name = modelOf(request, MODEL_PATH);
        writeJson(response, 200, { name: `models/${name}`, displayName: name, supportedGenerationMethods: ['generateContent', 'countTokens'] });
        return true;
      }
      return false;
    },
  };
  return protocol;
}

/** Starts a fake Gemini API on 127.0.0.1; pass `url` as GOOGLE_GEMINI_BASE_URL. */
export async function startFakeGemini(): Promise<{ server: ScriptedModelServer; url: string }> {
  const server = new ScriptedModelServer(createGeminiProtocol());
  const url = await server.listen();
  return { server, url };
}
