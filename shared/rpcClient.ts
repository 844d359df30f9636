import { entryOf, METHODS, type MethodName, type MethodParams, type MethodResult } from './contract';
import type { DroverEvent } from './events';
import { DroverRequestError, ServerFrameSchema, type RequestFrame, type TaskOutputBytes, type TerminalBytes } from './protocol';

export interface PushHandlers {
  onEvent?(event: DroverEvent): void;
  onOutput?(chunk: TaskOutputBytes): void;
  onTerminal?(chunk: TerminalBytes): void;
  /** The host said it stops on purpose; the connection ends next. */
  onHostStopping?(): void;
  /**
   * A successful reply to `method` has been checked; `arrivedAt` (performance.now()) is when it
   * arrived, before the check (the page measures a work-state snapshot's parts with it).
   */
  onChecked?(method: MethodName, params: unknown, arrivedAt: number): void;
}

/** A client that reconnects: what it does with the calls a dropped connection left unanswered. */
export interface DropPolicy {
  /** Starts every key this client gives a call: unique to this client (a page load, say). */
  keyPrefix: string;
  /** How long those calls wait for the next connection before they fail. */
  holdMs: number;
}

interface PendingCall {
  method: MethodName;
  params: unknown;
  frame: RequestFrame;
  resolve(v: unknown): void;
  reject(e: Error): void;
}

/**
 * The calling side of the contract over any frame transport (WebSocket, local socket). It pairs
 * responses with requests, validates every frame it receives, and fails pending calls when the
 * transport closes, or, with a drop policy, sends them again on the next connection (each as its
 * kind says: shared/contract/methodFacts.ts).
 */
export class RpcClient {
  private nextId = 1;
  private readonly pending = new Map<number, PendingCall>();
  private holdTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly sendFrame: (frame: RequestFrame) => void,
    private readonly handlers: PushHandlers = {},
    private readonly dropPolicy?: DropPolicy,
  ) {}

  call<M extends MethodName>(method: M, params: MethodParams<M>): Promise<MethodResult<M>> {
    const id = this.nextId++;
    const frame: RequestFrame = { t: 'req', id, method, params };
    if (this.dropPolicy && entryOf(method).kind === 'changes') frame.key = `${this.dropPolicy.keyPrefix}${id}`;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { method, params, frame, resolve: resolve as (v: unknown) => void, reject });
      try {
        this.sendFrame(frame);
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
    else if (frame.t === 'host-stopping') this.handlers.onHostStopping?.();
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
    this.stopHolding();
    for (const call of this.pending.values()) call.reject(new DroverRequestError('internal', reason));
    this.pending.clear();
  }

  /**
   * The connection dropped and the transport reconnects: calls on the connection itself fail now,
   * the others wait for {@link reconnected} (all of them fail if it does not come in time).
   */
  connectionLost(reason: string): void {
    const policy = this.dropPolicy;
    if (!policy) return this.failAll(reason);
    for (const [id, call] of this.pending) {
      if (entryOf(call.method).kind !== 'connection') continue;
      this.pending.delete(id);
      call.reject(new DroverRequestError('internal', reason));
    }
    // Counted from the drop: the reconnect attempts that fail meanwhile do not start it again.
    this.holdTimer ??= setTimeout(() => this.failAll(`${reason}, and not back within ${Math.round(policy.holdMs / 1000)} s`), policy.holdMs);
  }

  private stopHolding(): void {
    clearTimeout(this.holdTimer);
    this.holdTimer = undefined;
  }

  /** A new connection is open: the calls the drop left unanswered go again, keys and all. */
  reconnected(): void {
    this.stopHolding();
    for (const [id, call] of this.pending) {
      try {
        this.sendFrame(call.frame);
      } catch (error) {
        this.pending.delete(id);
        call.reject(error instanceof Error ? error : new Error(String(error)));
      }
    }
  }
}
