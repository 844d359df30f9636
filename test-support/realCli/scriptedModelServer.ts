import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * What the fake model does on its next conversation turn. Each provider (Anthropic Messages,
 * OpenAI Responses, Gemini) writes these in its own wire format.
 */
export type ModelTurn =
  | { kind: 'text'; text: string }
  /** The model calls a tool (an MCP tool of Drover's, or the CLI's own shell tool). */
  | { kind: 'tool-call'; name: string; input: Record<string, unknown>; text?: string }
  /** A server error the CLI reports and gives up on (after its own retries). */
  | { kind: 'error'; status: number; message: string }
  /** A 429 as the provider sends it when the account's quota is spent. */
  | { kind: 'rate-limit'; message: string; retryAfterSeconds?: number };

/** The tools a request put before the model. */
export interface OfferedTools {
  /** Tools the model can call in this request, by the name it calls them. */
  callable: string[];
  /** Tools the model must load through the CLI's tool search before it can call them (or their namespaces). */
  deferred: string[];
  /** Tools the CLI loaded for the model earlier in the conversation, in answer to a tool search. */
  loaded: string[];
}

const NO_TOOLS: OfferedTools = { callable: [], deferred: [], loaded: [] };

export interface RecordedRequest {
  method: string;
  /** Path with its query string. */
  url: string;
  headers: http.IncomingHttpHeaders;
  /** The parsed JSON body, or the raw text when it is not JSON. */
  body: unknown;
  receivedAt: number;
  /** Whether the provider took it as a conversation turn (and answered it from the script). */
  turn: boolean;
  /** The tools this request offered the model. */
  tools: OfferedTools;
}

/** The part of a fake server that knows one provider's API. */
export interface ModelProtocol {
  /** A request the model answers from the script (not a token count, title or quota probe). */
  isTurn(request: RecordedRequest): boolean;
  /** Answers a conversation turn in the provider's wire format. */
  writeTurn(turn: ModelTurn, request: RecordedRequest, response: http.ServerResponse): void;
  /** Answers any other request (model lists, token counts, side calls); false for a 404. */
  writeOther(request: RecordedRequest, response: http.ServerResponse): boolean;
  /** The tools a request offers, as this provider's API lists them. */
  offeredTools?(request: RecordedRequest): OfferedTools;
}

/** When the script is empty the model just answers, so a CLI's extra turns never hang it. */
const DEFAULT_TURN: ModelTurn = { kind: 'text', text: 'Done.' };

/**
 * A local model server for driving the real agent CLIs offline: it answers conversation turns from
 * a script, in order, and records every request the CLI sent so a test can read what reached the
 * model (for instance the wake text Drover typed, as the next user message).
 */
export class ScriptedModelServer {
  readonly requests: RecordedRequest[] = [];
  private readonly script: ModelTurn[] = [];
  private readonly server: http.Server;
  private readonly waiters = new Set<() => void>();
  private heldTurn: Promise<void> | null = null;

  constructor(private readonly protocol: ModelProtocol) {
    this.server = http.createServer((request, response) => this.handle(request, response));
  }

  async listen(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    const { port } = this.server.address() as AddressInfo;
    return `http://127.0.0.1:${port}`;
  }

  /** Queues what the model does on its next turns. */
  enqueue(...turns: ModelTurn[]): void {
    this.script.push(...turns);
  }

  /** Forgets turns queued but not taken (a scenario that ended before the CLI asked for them). */
  clear(): void {
    this.script.length = 0;
  }

  /** Holds the answer to the next conversation turn (it is received and recorded) until the returned release is called. */
  holdNextTurn(): () => void {
    let release = () => {};
    this.heldTurn = new Promise((resolve) => (release = resolve));
    return release;
  }

  get pendingTurns(): number {
    return this.script.length;
  }

  turns(): RecordedRequest[] {
    return this.requests.filter((request) => request.turn);
  }

  /** Every tool the CLI loaded for the model through its tool search, in the order first loaded. */
  toolsLoaded(): string[] {
    return [...new Set(this.requests.flatMap((request) => request.tools.loaded))];
  }

  /** Resolves with the first recorded request (from `from` on) that `match` accepts. */
  waitForRequest(match: (request: RecordedRequest) => boolean, what: string, timeoutMs = 30_000, from = 0): Promise<RecordedRequest> {
    return new Promise((resolve, reject) => {
      const check = (): boolean => {
        const found = this.requests.slice(from).find(match);
        if (!found) return false;
        cleanup();
        resolve(found);
        return true;
      };
      const timer = setTimeout(() => {
        cleanup();
        reject(new Error(`Timed out after ${timeoutMs} ms waiting for the model to receive ${what}`));
      }, timeoutMs);
      const cleanup = () => {
        clearTimeout(timer);
        this.waiters.delete(waiter);
      };
      const waiter = () => void check();
      if (!check()) this.waiters.add(waiter);
    });
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private handle(request: http.IncomingMessage, response: http.ServerResponse): void {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      let body: unknown = text;
      try {
        body = text ? JSON.parse(text) : undefined;
      } catch {
        // Not JSON: kept as text.
      }
      const recorded: RecordedRequest = {
        method: request.method ?? 'GET',
        url: request.url ?? '/',
        headers: request.headers,
        body,
        receivedAt: Date.now(),
        turn: false,
        tools: NO_TOOLS,
      };
      recorded.tools = this.protocol.offeredTools?.(recorded) ?? NO_TOOLS;
      recorded.turn = this.protocol.isTurn(recorded);
      this.requests.push(recorded);
      if (recorded.turn) {
        const turn = this.script.shift() ?? DEFAULT_TURN;
        const held = this.heldTurn;
        this.heldTurn = null;
        if (held) void held.then(() => this.answer(() => this.protocol.writeTurn(turn, recorded, response), response));
        else this.answer(() => this.protocol.writeTurn(turn, recorded, response), response);
      } else {
        this.answer(() => {
          if (this.protocol.writeOther(recorded, response)) return;
          response.writeHead(404, { 'content-type': 'application/json' });
          response.end(JSON.stringify({ error: { message: `not found: ${recorded.method} ${recorded.url}` } }));
        }, response);
      }
      for (const waiter of [...this.waiters]) waiter();
    });
  }

  private answer(write: () => void, response: http.ServerResponse): void {
    try {
      write();
    } catch (error) {
      response.writeHead(500, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ error: { message: String(error) } }));
    }
  }
}
