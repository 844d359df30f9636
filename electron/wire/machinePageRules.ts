import { entryOf, isMethodName } from '../../shared/contract';
import { PROTOCOL_VERSION } from '../../shared/host';
import type { RequestFrame } from '../../shared/protocol';

/**
 * What a page of another machine may ask of that machine's host, and how the line to it is opened:
 * the same for a browser page (through `drover serve`'s door) and a desktop window (through main).
 */

/** The line's own hostHello: pages number their calls from 1. */
export const GREETING_ID = 0;

/** The hostHello that opens a line to a machine's host, before any frame of the page crosses. */
export function greetingFrame(version: string): RequestFrame {
  return { t: 'req', id: GREETING_ID, method: 'hostHello', params: { protocol: PROTOCOL_VERSION, version, client: 'page' } };
}

/** Why a page lost its machine when the line ended without a reason of ssh's. */
export function connectionEndedReason(machine: string): string {
  return `The connection to ${machine} ended.`;
}

/** Why the machine's host cannot serve a page, from its reply to the greeting; null when it can. */
export function greetingProblem(machine: string, reply: unknown): string | null {
  if (typeof reply !== 'object' || reply === null) return `${machine} answered in a way this Drover cannot read.`;
  const { ok, result, error } = reply as { ok?: unknown; result?: { protocol?: unknown; version?: unknown }; error?: { message?: unknown } };
  if (ok !== true) return `${machine}'s host refused this page: ${String(error?.message ?? 'no reason given')}`;
  if (result?.protocol === PROTOCOL_VERSION) return null;
  return `${machine} runs Drover ${String(result?.version)}, another protocol: restart its host once its work is done.`;
}

/** Why a page's request may not cross to its machine's host; null when it may. */
export function pageRequestProblem(frame: RequestFrame): string | null {
  if (frame.id === GREETING_ID) return `request id ${GREETING_ID} is the line's own; number calls from 1`;
  // An unknown method crosses: that host answers it as unknown.
  if (isMethodName(frame.method) && !entryOf(frame.method).doors.includes('machinePage')) {
    return `${frame.method} is only for Drover's own commands on the local socket, not for a page.`;
  }
  return null;
}
