/**
 * Terminal and task-output bytes travel as binary frames, not JSON: no escaping of control bytes
 * on the way out, no string building on the way in, and the UTF-8 is decoded once, by the xterm
 * that shows it. A frame is
 *
 *   kind (1 byte: 1 = term, 2 = out) · owner id length (1 byte) · owner id (ASCII: the agent or task)
 *   · project id length (1 byte) · project id (ASCII) · [term only: `at`, a float64, little endian]
 *   · the bytes themselves
 *
 * The same payload is a WebSocket binary message, a record of the local socket, and (decoded) what
 * Electron IPC carries as a Uint8Array.
 */
const KIND_TERMINAL = 1;
const KIND_OUTPUT = 2;
const OFFSET_BYTES = 8;

/** What the header says: which stream, whose, in which project (the data may still be text). */
export type StreamHeader = { t: 'term'; chunk: { agentId: string; projectId: string; at: number } } | { t: 'out'; chunk: { taskId: string; projectId: string } };

function ownerOf(frame: StreamHeader): string {
  return frame.t === 'term' ? frame.chunk.agentId : frame.chunk.taskId;
}

/** Bytes before the data: the kind, both ids with their lengths, and a terminal chunk's offset. */
export function streamHeaderLength(frame: StreamHeader): number {
  return 3 + ownerOf(frame).length + frame.chunk.projectId.length + (frame.t === 'term' ? OFFSET_BYTES : 0);
}

function writeAscii(target: Uint8Array, offset: number, text: string): number {
  target[offset] = text.length;
  for (let i = 0; i < text.length; i++) target[offset + 1 + i] = text.charCodeAt(i);
  return offset + 1 + text.length;
}

/** Writes the header at the start of `target`; the caller puts the data after it. */
export function writeStreamHeader(target: Uint8Array, frame: StreamHeader): number {
  target[0] = frame.t === 'term' ? KIND_TERMINAL : KIND_OUTPUT;
  const end = writeAscii(target, writeAscii(target, 1, ownerOf(frame)), frame.chunk.projectId);
  if (frame.t !== 'term') return end;
  new DataView(target.buffer, target.byteOffset, target.byteLength).setFloat64(end, frame.chunk.at, true);
  return end + OFFSET_BYTES;
}

function readAscii(bytes: Uint8Array, offset: number): { text: string; next: number } | null {
  const length = bytes[offset];
  if (length === undefined || offset + 1 + length > bytes.length) return null;
  return { text: String.fromCharCode(...bytes.subarray(offset + 1, offset + 1 + length)), next: offset + 1 + length };
}

/**
 * One binary frame as a push frame object (its data a view, not a copy), or null when it is not one.
 * The ids are not checked here: the frame goes through RpcClient.receive like any other, which does.
 */
export function decodeStreamFrame(bytes: Uint8Array): unknown {
  const kind = bytes[0];
  const owner = readAscii(bytes, 1);
  const project = owner && readAscii(bytes, owner.next);
  if (!owner || !project) return null;
  if (kind === KIND_OUTPUT) return { t: 'out', chunk: { taskId: owner.text, projectId: project.text, data: bytes.subarray(project.next) } };
  if (kind !== KIND_TERMINAL || project.next + OFFSET_BYTES > bytes.length) return null;
  const at = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getFloat64(project.next, true);
  return { t: 'term', chunk: { agentId: owner.text, projectId: project.text, at, data: bytes.subarray(project.next + OFFSET_BYTES) } };
}
