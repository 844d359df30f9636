import { z } from 'zod';
import { METHODS, isMethodName, type MethodName } from '../../shared/contract';
import { RequestFrameSchema, type ErrorBody, type PushFrame, type ResponseFrame } from '../../shared/protocol';
import type { Core, CoreMethod } from '../core/core';
import { toRequestError } from '../core/errors';

/** One client of any transport: it sends raw frames in and gets responses and pushes back. */
export interface Connection {
  handle(raw: unknown): Promise<ResponseFrame>;
  close(): void;
}

/** Params as validated by the method's schema. */
type Params<M extends MethodName> = z.output<(typeof METHODS)[M]['params']>;

function errorFrame(id: number | null, error: ErrorBody): ResponseFrame {
  return { t: 'res', id, ok: false, error };
}

function idOf(raw: unknown): number | null {
  const id = (raw as { id?: unknown } | null)?.id;
  return typeof id === 'number' && Number.isInteger(id) && id >= 0 ? id : null;
}

function describe(error: z.ZodError): string {
  return error.issues.map((issue) => `${issue.path.length ? issue.path.join('.') : 'params'}: ${issue.message}`).join('; ');
}

/**
 * Validates every frame against the shared contract, dispatches it to the core, and turns every
 * failure into an error reply, so a bad client never takes the transport down.
 */
export function openConnection(core: Core, push: (frame: PushFrame) => void): Connection {
  const watched = new Set<string>();
  const terminals = new Map<string, { acknowledge(chars: number): void; detach(): void }>();
  /** Aborted when the client goes: its pending ask_agent waits end, and their replies stay pending. */
  const lifetime = new AbortController();
  const stopEvents = core.events.onEvent((event) => push({ t: 'evt', event }));
  const stopOutput = core.events.onOutput((chunk) => {
    if (watched.has(chunk.taskId)) push({ t: 'out', chunk });
  });

  async function dispatch(method: string, rawParams: unknown, id: number): Promise<ResponseFrame> {
    if (!isMethodName(method)) return errorFrame(id, { code: 'unknown-method', message: `Unknown method: ${method}` });
    const params = METHODS[method].params.safeParse(rawParams ?? {});
    if (!params.success) {
      return errorFrame(id, { code: 'bad-request', message: `Invalid ${method} params: ${describe(params.error)}` });
    }
    try {
      const scoped = connectionMethod(method, params.data);
      if (scoped !== undefined) return { t: 'res', id, ok: true, result: await scoped };
      const handler = core.api[method as CoreMethod] as (p: unknown) => unknown;
      return { t: 'res', id, ok: true, result: await handler(params.data) };
    } catch (error) {
      const { code, message } = toRequestError(error);
      return errorFrame(id, { code, message });
    }
  }

  /** Methods whose effect belongs to this connection: output watches and terminal attachments. */
  function connectionMethod(method: MethodName, data: unknown): object | null | undefined | Promise<object | null> {
    switch (method) {
      case 'watchTaskOutput': {
        const { taskId } = data as Params<'watchTaskOutput'>;
        core.api.getTask({ taskId });
        watched.add(taskId);
        return { taskId };
      }
      case 'unwatchTaskOutput': {
        const { taskId } = data as Params<'unwatchTaskOutput'>;
        watched.delete(taskId);
        return { taskId };
      }
      case 'attachAgentTerminal': {
        const { agentId } = data as Params<'attachAgentTerminal'>;
        terminals.get(agentId)?.detach();
        const attachment = core.agents.attach(agentId, (chunk) => push({ t: 'term', chunk }));
        terminals.set(agentId, attachment);
        return { agentId, scrollback: attachment.scrollback };
      }
      case 'detachAgentTerminal': {
        const { agentId } = data as Params<'detachAgentTerminal'>;
        terminals.get(agentId)?.detach();
        terminals.delete(agentId);
        return { agentId };
      }
      case 'awaitReply': {
        const { questionId, timeoutMs } = data as Params<'awaitReply'>;
        return core.inbox.awaitReply(questionId, timeoutMs, lifetime.signal);
      }
      case 'ackAgentOutput': {
        const { agentId, chars } = data as Params<'ackAgentOutput'>;
        terminals.get(agentId)?.acknowledge(chars);
        return { agentId };
      }
      default:
        return undefined;
    }
  }

  return {
    handle: async (raw) => {
      const frame = RequestFrameSchema.safeParse(raw);
      if (!frame.success) {
        return errorFrame(idOf(raw), { code: 'bad-request', message: `Malformed request frame: ${describe(frame.error)}` });
      }
      return dispatch(frame.data.method, frame.data.params, frame.data.id);
    },
    close: () => {
      lifetime.abort();
      stopEvents();
      stopOutput();
      watched.clear();
      for (const attachment of terminals.values()) attachment.detach();
      terminals.clear();
    },
  };
}
