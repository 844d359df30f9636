import { METHODS, isMethodName } from '../../shared/contract';
import { DroverRequestError, RequestFrameSchema, type ErrorBody, type ResponseFrame } from '../../shared/protocol';
import { describeIssues } from '../../shared/validationIssues';
import type { Caller, Client } from '../core/api';
import { visibleTo } from '../core/callers/agentAccess';
import type { Core } from '../core/compose';
import { toRequestError } from '../core/errors';
import type { HostPush } from './frameCodec';

/** One client of any transport: it sends raw frames in and gets responses and pushes back. */
export interface Connection {
  handle(raw: unknown): Promise<ResponseFrame>;
  close(): void;
}

function errorFrame(id: number | null, error: ErrorBody): ResponseFrame {
  return { t: 'res', id, ok: false, error };
}

function idOf(raw: unknown): number | null {
  const id = (raw as { id?: unknown } | null)?.id;
  return typeof id === 'number' && Number.isInteger(id) && id >= 0 ? id : null;
}

/**
 * Validates every frame against the shared contract, dispatches it to the core on behalf of this
 * client, and turns every failure into an error reply, so a bad client never takes the transport down.
 */
export function openConnection(core: Core, push: (frame: HostPush) => void): Connection {
  const lifetime = new AbortController();
  let caller: Caller = { kind: 'person' };
  const client: Client = {
    signal: lifetime.signal,
    get caller() {
      return caller;
    },
    identifyAs: (agent) => {
      if (caller.kind === 'agent') throw new DroverRequestError('forbidden', `This connection already speaks for ${caller.agentName}; it cannot change whom it speaks for.`);
      caller = agent;
    },
    sendTaskOutput: (chunk) => push({ t: 'out', chunk }),
    sendTerminal: (chunk) => push({ t: 'term', chunk }),
  };
  const stopEvents = core.events.onEvent((event) => {
    if (visibleTo(caller, event)) push({ t: 'evt', event });
  });

  async function dispatch(method: string, rawParams: unknown, id: number): Promise<ResponseFrame> {
    if (!isMethodName(method)) return errorFrame(id, { code: 'unknown-method', message: `Unknown method: ${method}` });
    const params = METHODS[method].params.safeParse(rawParams ?? {});
    if (!params.success) {
      return errorFrame(id, { code: 'bad-request', message: `Invalid ${method} params: ${describeIssues(params.error, 'params')}` });
    }
    try {
      // The params were just validated by this method's own schema.
      const handler = core.api[method] as (params: unknown, client: Client) => Promise<unknown>;
      return { t: 'res', id, ok: true, result: await handler(params.data, client) };
    } catch (error) {
      const { code, message } = toRequestError(error);
      return errorFrame(id, { code, message });
    }
  }

  return {
    handle: async (raw) => {
      const frame = RequestFrameSchema.safeParse(raw);
      if (!frame.success) {
        return errorFrame(idOf(raw), { code: 'bad-request', message: `Malformed request frame: ${describeIssues(frame.error, 'params')}` });
      }
      return dispatch(frame.data.method, frame.data.params, frame.data.id);
    },
    close: () => {
      lifetime.abort();
      stopEvents();
    },
  };
}
