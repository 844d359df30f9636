import { METHODS, type MethodName, type MethodParams, type MethodResult } from './contract';
import type { DroverEvent } from './events';
import { DroverRequestError, ServerFrameSchema, type RequestFrame, type TaskOutputBytes, type TerminalBytes } from './protocol';

export interface PushHandlers {
  onEvent?(event: DroverEvent): void;
  onOutput?(chunk: TaskOutputBytes): void;
  onTerminal?(chunk: TerminalBytes): void;
  /**
   * A successful reply to `method` has been checked; `arrivedAt` (performance.now()) is when it
   * arrived, before the check (the page measures a work-state snapshot's parts with it).
   */
  onChecked?(method: MethodName, params: unknown, arrivedAt: number): void;
}

/**
 * The calling side of the contract over any frame transport (WebSocket, local socket). It pairs
 * responses with requests, validates every frame it receives, and fails pending calls when the
 * transport closes.
 */
export class RpcClient {
  private nextId = 1;
  private readonly pending = new Map<number, { method: MethodName; params: unknown; resolve(v: unknown): void; reject(e: Error): void }>();

  constructor(
    private readonly sendFrame: (frame: RequestFrame) => void,
    private readonly handlers: PushHandlers = {},
  ) {}

  call<M extends MethodName>(method: M, params: MethodParams<M>): Promise<MethodResult<M>> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { method, params, resolve: resolve as (v: unknown) => void, reject });
      try {
        this.sendFrame({ t: 'req', id, method, params });
      } catch (error) {
        this.pending.delete(id);
        reject(error instanceof Error ? error : new Error(String(error)));
      }
    });
  }

  /** Feed one decoded frame from the transport (a binary one through decodeStreamFrame). */
  receive(raw: unknown): void {
    const arrivedAt = performance.now();
    const parsed = ServerFrameSchema.safeParse(raw);
    if (!parsed.success) return;
    const frame = parsed.data;
    if (frame.t === 'evt') this.handlers.onEvent?.(frame.event);
    else if (frame.t === 'out') this.handlers.onOutput?.(frame.chunk);
    else if (frame.t === 'term') this.handlers.onTerminal?.(frame.chunk);
    else if (frame.id !== null) {
      const call = this.pending.get(frame.id);
      if (!call) return;
      this.pending.delete(frame.id);
      if (frame.ok) {
        const result = METHODS[call.method].result.safeParse(frame.result);
        if (result.success) this.handlers.onChecked?.(call.method, call.params, arrivedAt);
        if (result.success) call.resolve(result.data);
        else call.reject(new DroverRequestError('internal', `Malformed ${call.method} result: ${result.error.message}`));
      } else {
        call.reject(new DroverRequestError(frame.error.code, frame.error.message));
      }
    }
  }

  /** The transport went away: every call still waiting fails with `reason`. */
  failAll(reason: string): void {
    for (const call of this.pending.values()) call.reject(new DroverRequestError('internal', reason));
    this.pending.clear();
  }
}
