import type { z } from 'zod';
import type { CoreMethodName, METHODS, MethodName, MethodResult } from '../../shared/contract';
import type { TaskOutputChunk, TerminalChunk } from '../../shared/events';
import { DroverRequestError } from '../../shared/protocol';

/** A method's params as its schema produced them (defaults filled in). */
export type MethodInput<M extends MethodName> = z.output<(typeof METHODS)[M]['params']>;

/** An agent a connection proved it speaks for (see identifyAgent), for as long as the session it proved lasts. */
export interface AgentCaller {
  kind: 'agent';
  projectId: string;
  agentId: string;
  agentName: string;
  /** The session whose proof the connection gave. */
  sessionId: string;
  /** Why the identity no longer holds (that session ended, the agent or its project was removed); null while it does. */
  ended(): string | null;
}

/**
 * Who a client speaks for: the person (the window, the browser page, the CLI in their own shell,
 * and every connection that never identified), or one agent, held to its own project and inbox.
 */
export type Caller = { kind: 'person' } | AgentCaller;

/** Whether a caller still speaks for someone: the person always, an agent while its identity holds. */
export function speaksForSomeone(caller: Caller): boolean {
  return caller.kind === 'person' || caller.ended() === null;
}

/**
 * Whoever sent a request: a window, a browser tab, the CLI, an MCP server. Methods whose effect
 * belongs to one client (watching a task's output, attaching a terminal, waiting for a reply) send
 * to it, and end what they set up for it when `signal` aborts (the client went away).
 */
export interface Client {
  readonly signal: AbortSignal;
  /** The person until the connection identifies as an agent, which it may do once. */
  readonly caller: Caller;
  /** Called by the core once it checked the agent's proof; refused while the client speaks for an agent whose identity holds. */
  identifyAs(agent: AgentCaller): void;
  sendTaskOutput(chunk: TaskOutputChunk): void;
  sendTerminal(chunk: TerminalChunk): void;
}

type Handler<M extends MethodName> = (params: MethodInput<M>, client: Client) => MethodResult<M> | Promise<MethodResult<M>>;

/** A domain's part of the contract: one handler per method it owns. */
export type Methods<M extends MethodName> = { [K in M]: Handler<K> };

/** The core's part of the contract (all of it but the host's own methods), as every door calls it. */
export type CoreApi = { [M in CoreMethodName]: (params: MethodInput<M>, client?: Client) => Promise<MethodResult<M>> };

/** For in-process callers (tests, the host itself): the person; nothing is pushed to it and it never goes away. */
const IN_PROCESS_CLIENT: Client = {
  signal: new AbortController().signal,
  caller: { kind: 'person' },
  identifyAs: () => {
    throw new DroverRequestError('forbidden', 'An in-process caller speaks for the person; only a connection can identify as an agent.');
  },
  sendTaskOutput: () => {},
  sendTerminal: () => {},
};

/**
 * Every handler answers with a promise, whether its domain works synchronously or not; what a
 * handler throws passes through `explain` (which may say more about it than the thrower knew).
 */
export function toCoreApi(handlers: Methods<CoreMethodName>, explain: (error: unknown) => unknown = (error) => error): CoreApi {
  const api: Record<string, (params: unknown, client?: Client) => Promise<unknown>> = {};
  for (const [method, handler] of Object.entries(handlers) as [MethodName, (params: unknown, client: Client) => unknown][]) {
    api[method] = async (params, client = IN_PROCESS_CLIENT) => {
      try {
        return await handler(params, client);
      } catch (error) {
        throw explain(error);
      }
    };
  }
  return api as CoreApi;
}

/**
 * What a domain keeps per client (output watches, terminal attachments), created on first use and
 * released by `dispose` when the client goes away.
 */
export class PerClient<T> {
  private readonly byClient = new WeakMap<Client, T>();

  constructor(
    private readonly create: (client: Client) => T,
    private readonly dispose: (value: T) => void,
  ) {}

  of(client: Client): T {
    let value = this.byClient.get(client);
    if (value === undefined) {
      const created = this.create(client);
      this.byClient.set(client, created);
      client.signal.addEventListener('abort', () => this.dispose(created), { once: true });
      value = created;
    }
    return value;
  }
}
