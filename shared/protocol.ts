import { z } from 'zod';
import { DroverEventSchema, TaskOutputChunkSchema, TerminalChunkSchema } from './events';

/**
 * Wire frames shared by every transport (WebSocket, local socket, Electron IPC). Requests carry a
 * client-chosen id that the response echoes; pushes have no id. A call that changes work state may
 * carry a key, the same when the client sends it again on a new connection after a drop: the host
 * applies a keyed call once and answers the repeat with the first answer (see MethodKind in contract/methodFacts.ts).
 */
export const RequestFrameSchema = z
  .object({
    t: z.literal('req'),
    id: z.number().int().nonnegative(),
    method: z.string(),
    params: z.unknown().optional(),
    key: z.string().min(1).max(200).optional(),
  })
  .strict();
export type RequestFrame = z.infer<typeof RequestFrameSchema>;

/**
 * Limits every door enforces, so no single frame can stall or exhaust the host. A request frame
 * holds at most one method call; the largest legitimate one (a 1,000,000-character terminal paste,
 * JSON-escaped) fits well within the byte limit, and the contract nests a handful of levels deep.
 */
export const MAX_REQUEST_FRAME_BYTES = 8 * 1024 * 1024;
export const MAX_FRAME_DEPTH = 64;
/** The largest frame the host sends; list replies page far below it (see REPLY_PAGE_BYTES). */
export const MAX_SERVER_FRAME_BYTES = 64 * 1024 * 1024;
/** How much JSON one page of a paged reply (listTasks, a getWorkState part) may carry. */
export const REPLY_PAGE_BYTES = 4 * 1024 * 1024;

export const ERROR_CODES = [
  'bad-request',
  'too-large',
  'unknown-method',
  'not-found',
  'invalid-path',
  'invalid-state',
  /** An agent's connection asked for what only the person, or another agent, may do. */
  'forbidden',
  'conflict',
  'spawn-failed',
  'storage-unavailable',
  /** A registered project's database is missing or empty: restore it, or start the project empty. */
  'data-missing',
  'disk-full',
  'internal',
] as const;
export const ErrorCodeSchema = z.enum(ERROR_CODES);
export type ErrorCode = z.infer<typeof ErrorCodeSchema>;

export const ErrorBodySchema = z.object({ code: ErrorCodeSchema, message: z.string() });
export type ErrorBody = z.infer<typeof ErrorBodySchema>;

export const ResponseFrameSchema = z.discriminatedUnion('ok', [
  z.object({ t: z.literal('res'), id: z.number().int().nonnegative(), ok: z.literal(true), result: z.unknown() }),
  z.object({
    t: z.literal('res'),
    /** `null` when the request was too malformed to carry an id. */
    id: z.number().int().nonnegative().nullable(),
    ok: z.literal(false),
    error: ErrorBodySchema,
  }),
]);
export type ResponseFrame = z.infer<typeof ResponseFrameSchema>;

/** The reply refusing request `id` (null: a request too malformed to carry one), for any door or relay. */
export function refusalFrame(id: number | null, code: ErrorCode, message: string): ResponseFrame {
  return { t: 'res', id, ok: false, error: { code, message } };
}

/** A request's id as far as a frame that failed its check still carries one, so the refusal reaches its call. */
export function requestIdOf(raw: unknown): number | null {
  const id = (raw as { id?: unknown } | null)?.id;
  return typeof id === 'number' && Number.isInteger(id) && id >= 0 ? id : null;
}

export const EventFrameSchema = z.object({ t: z.literal('evt'), event: DroverEventSchema });

/** Bytes as every client holds them: a Uint8Array (a Node Buffer is one too). */
const BytesSchema = z.custom<Uint8Array>((value) => value instanceof Uint8Array, 'not bytes');
/** On the wire, task output and terminal chunks carry their bytes undecoded (see streamFrames.ts). */
export const TaskOutputBytesSchema = TaskOutputChunkSchema.extend({ data: BytesSchema });
export type TaskOutputBytes = z.infer<typeof TaskOutputBytesSchema>;
export const TerminalBytesSchema = TerminalChunkSchema.extend({ data: BytesSchema });
export type TerminalBytes = z.infer<typeof TerminalBytesSchema>;

export const OutputFrameSchema = z.object({ t: z.literal('out'), chunk: TaskOutputBytesSchema });
export const TerminalFrameSchema = z.object({ t: z.literal('term'), chunk: TerminalBytesSchema });
/** The frames that carry bytes: binary on sockets, a Uint8Array over Electron IPC. */
export type StreamFrame = z.infer<typeof OutputFrameSchema> | z.infer<typeof TerminalFrameSchema>;

/**
 * The host's last word to a client of its local socket when it stops on purpose (`drover host
 * stop`, a restart, a quit), as code 4003 is the browser door's: a connection that ends without it
 * lost a host that crashed or was killed.
 */
export const HostStoppingFrameSchema = z.object({ t: z.literal('host-stopping') }).strict();
export type HostStoppingFrame = z.infer<typeof HostStoppingFrameSchema>;

// Discriminated by `t`, so a frame is checked against its own shape only: a flood of terminal
// frames costs no failed attempts at the other shapes.
export const ServerFrameSchema = z.discriminatedUnion('t', [ResponseFrameSchema, EventFrameSchema, OutputFrameSchema, TerminalFrameSchema, HostStoppingFrameSchema]);
export type ServerFrame = z.infer<typeof ServerFrameSchema>;
export type EventFrame = z.infer<typeof EventFrameSchema>;
export type PushFrame = EventFrame | StreamFrame;
/** What travels as JSON text: replies, events and the host's notice that it stops. */
export type TextFrame = ResponseFrame | EventFrame | HostStoppingFrame;

/** The serve host prints exactly this line (with its URL) once it is ready. */
export const SERVING_LINE_PREFIX = 'Drover serving at ';

export class DroverRequestError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'DroverRequestError';
  }
}
