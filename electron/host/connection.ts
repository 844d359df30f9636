import { METHODS, entryOf, isMethodName, type CoreMethodName, type MethodName } from '../../shared/contract';
import { HOST_METHOD_NAMES, type HostMethodName } from '../../shared/contract/host';
import type { Door as MethodDoor } from '../../shared/contract/methodFacts';
import { DroverRequestError, refusalFrame, RequestFrameSchema, requestIdOf, type ResponseFrame } from '../../shared/protocol';
import { describeIssues } from '../common/validationIssues';
import { speaksForSomeone, type Caller, type Client, type Methods } from '../core/api';
import { checkHostMethod, visibleTo } from '../core/callers/agentAccess';
import type { Core } from '../core/compose';
import { toRequestError } from '../core/errors';
import type { HostPush } from '../wire/frameCodec';
import type { RequestLedger } from './requestLedger';

/** One client of any transport: it sends raw frames in and gets responses and pushes back. */
export interface Connection {
  handle(raw: unknown): Promise<ResponseFrame>;
  close(): void;
}

/** Which door a client came through: the local socket (the person's commands, the window) or a browser page. */
export type Door = Extract<MethodDoor, 'socket' | 'web'>;

/** The methods the host answers itself (see shared/contract/host.ts). */
export type HostMethods = Methods<HostMethodName>;

const HOST_METHODS: ReadonlySet<string> = new Set(HOST_METHOD_NAMES);


function isHostMethod(method: MethodName): method is HostMethodName {
  return HOST_METHODS.has(method);
}

/**
 * Validates every frame against the shared contract, dispatches it to the host or the core on
 * behalf of this client, and turns every failure into an error reply, so a bad client never takes
 * the transport down.
 */
export function openConnection(core: Core, host: HostMethods, door: Door, push: (frame: HostPush) => void, ledger: RequestLedger): Connection {
  const lifetime = new AbortController();
  let caller: Caller = { kind: 'person' };
  const client: Client = {
    signal: lifetime.signal,
    get caller() {
      return caller;
    },
    identifyAs: (agent) => {
      if (caller.kind === 'agent' && caller.ended() === null) {
        throw new DroverRequestError('forbidden', `This connection already speaks for ${caller.agentName}; it cannot change whom it speaks for.`);
      }
      caller = agent;
    },
    // What it set up before its agent identity ended (a task's output it watches) no longer reaches it.
    sendTaskOutput: (chunk) => {
      if (speaksForSomeone(caller)) push({ t: 'out', chunk });
    },
    sendTerminal: (chunk) => {
      if (speaksForSomeone(caller)) push({ t: 'term', chunk });
    },
  };
  const stopEvents = core.events.onEvent((event) => {
    if (visibleTo(caller, event)) push({ t: 'evt', event });
  });

  async function dispatch(method: string, rawParams: unknown, id: number): Promise<ResponseFrame> {
    if (!isMethodName(method)) return refusalFrame(id, 'unknown-method', `Unknown method: ${method}`);
    if (!entryOf(method).doors.includes(door)) {
      return refusalFrame(id, 'bad-request', `${method} is only for Drover's own commands on the local socket, not for a page.`);
    }
    const params = METHODS[method].params.safeParse(rawParams ?? {});
    if (!params.success) {
      return refusalFrame(id, 'bad-request', `Invalid ${method} params: ${describeIssues(params.error, 'params')}`);
    }
    try {
      // The params were just validated by this method's own schema.
      if (isHostMethod(method)) checkHostMethod(method, caller);
      const handler = (isHostMethod(method) ? host[method] : core.api[method as CoreMethodName]) as (params: unknown, client: Client) => Promise<unknown>;
      return { t: 'res', id, ok: true, result: await handler(params.data, client) };
    } catch (error) {
      const { code, message } = toRequestError(error);
      return refusalFrame(id, code, message);
    }
  }

  return {
    handle: async (raw) => {
      const frame = RequestFrameSchema.safeParse(raw);
      if (!frame.success) {
        return refusalFrame(requestIdOf(raw), 'bad-request', `Malformed request frame: ${describeIssues(frame.error, 'params')}`);
      }
      const { method, params, id, key } = frame.data;
      if (key === undefined) return dispatch(method, params, id);
      // Keys are the client's own: scoped to whom the connection speaks for, so no one else's answer is ever given out.
      const scope = caller.kind === 'agent' ? `agent ${caller.agentId}` : `person ${door}`;
      const answer = await ledger.once(`${scope} ${key}`, () => dispatch(method, params, id));
      return { ...answer, id };
    },
    close: () => {
      lifetime.abort();
      stopEvents();
    },
  };
}
