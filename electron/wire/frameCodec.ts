import { isUtf8 } from 'node:buffer';
import type { TaskOutputChunk, TerminalChunk } from '../../shared/events';
import { MAX_FRAME_DEPTH, MAX_REQUEST_FRAME_BYTES, MAX_SERVER_FRAME_BYTES, refusalFrame, type EventFrame, type HostStoppingFrame, type ResponseFrame, type StreamFrame, type TextFrame } from '../../shared/protocol';
import { streamHeaderLength, writeStreamHeader } from '../../shared/streamFrames';

/** A push as the core hands it to a door: terminal and task output still as the PTY's text. */
export type HostStreamPush = { t: 'term'; chunk: TerminalChunk } | { t: 'out'; chunk: TaskOutputChunk };
export type HostPush = EventFrame | HostStoppingFrame | HostStreamPush;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_ARRAY = 0x5b;
const OPEN_OBJECT = 0x7b;
const CLOSE_ARRAY = 0x5d;
const CLOSE_OBJECT = 0x7d;

/** How deeply arrays and objects nest in JSON text, counted in one pass without parsing it. */
function exceedsDepth(bytes: Buffer, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i];
    if (inString) {
      if (byte === BACKSLASH) i++;
      else if (byte === QUOTE) inString = false;
    } else if (byte === QUOTE) inString = true;
    else if (byte === OPEN_ARRAY || byte === OPEN_OBJECT) {
      if (++depth > limit) return true;
    } else if (byte === CLOSE_ARRAY || byte === CLOSE_OBJECT) depth--;
  }
  return false;
}

const MB = 1024 * 1024;
const megabytes = (bytes: number) => `${(bytes / MB).toFixed(1)} MB`;

/**
 * One request frame's bytes as a value, or an Error saying why it is refused. The size, the
 * encoding and the nesting are checked before JSON.parse runs, so a hostile frame costs one linear
 * scan at most.
 */
export function decodeFrame(bytes: Buffer): unknown {
  if (bytes.length > MAX_REQUEST_FRAME_BYTES) {
    return new Error(`frame too large (${megabytes(bytes.length)}; the limit is ${megabytes(MAX_REQUEST_FRAME_BYTES)})`);
  }
  if (!isUtf8(bytes)) return new Error('not valid UTF-8 text');
  if (exceedsDepth(bytes, MAX_FRAME_DEPTH)) return new Error(`nested more than ${MAX_FRAME_DEPTH} levels deep`);
  try {
    return JSON.parse(bytes.toString('utf8')) as unknown;
  } catch (error) {
    return new Error(`not JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
}

export function malformedFrameReply(why: Error): ResponseFrame {
  return refusalFrame(null, 'bad-request', `Malformed frame: ${why.message}`);
}

function serialize(frame: TextFrame): { text: string } | { tooLarge: string } {
  let text: string;
  try {
    text = JSON.stringify(frame);
  } catch (error) {
    // V8 refuses strings past its maximum length with a RangeError.
    return { tooLarge: error instanceof Error ? error.message : String(error) };
  }
  // Cheap test first: UTF-8 takes at most three bytes per UTF-16 unit.
  if (text.length * 3 > MAX_SERVER_FRAME_BYTES) {
    const bytes = Buffer.byteLength(text);
    if (bytes > MAX_SERVER_FRAME_BYTES) return { tooLarge: megabytes(bytes) };
  }
  return { text };
}

/**
 * A frame for a client as JSON text, never more than MAX_SERVER_FRAME_BYTES. A reply that does not
 * fit becomes an error reply to the same request; a push that does not fit is dropped (null), and
 * `onDropped` says so. Nothing the core returns can make a door throw.
 */
export function encodeServerFrame(frame: TextFrame, onDropped: (why: string) => void): string | null {
  const encoded = serialize(frame);
  if ('text' in encoded) return encoded.text;
  if (frame.t !== 'res') {
    onDropped(`a ${frame.t} frame too large to send (${encoded.tooLarge}) was dropped`);
    return null;
  }
  onDropped(`the reply to request ${frame.id ?? '(no id)'} was too large to send (${encoded.tooLarge})`);
  const refusal: ResponseFrame = {
    t: 'res',
    id: frame.id,
    ok: false,
    error: {
      code: 'too-large',
      message: `The reply was too large to send (${encoded.tooLarge}; a frame holds at most ${megabytes(MAX_SERVER_FRAME_BYTES)}). Ask for less at a time.`,
    },
  };
  return JSON.stringify(refusal);
}

/**
 * A terminal or task-output push as one binary frame (shared/streamFrames.ts): the text is
 * encoded to UTF-8 once, straight into the frame, and never escaped. Chunks are batches of at most
 * tens of KiB, so the size limit only guards against a caller that stopped batching.
 */
export function encodeStreamPush(push: HostStreamPush, onDropped: (why: string) => void): Buffer | null {
  const headerLength = streamHeaderLength(push);
  const total = headerLength + Buffer.byteLength(push.chunk.data);
  if (total > MAX_SERVER_FRAME_BYTES) {
    onDropped(`a ${push.t} frame too large to send (${megabytes(total)}) was dropped`);
    return null;
  }
  const frame = Buffer.allocUnsafe(total);
  writeStreamHeader(frame, push);
  frame.write(push.chunk.data, headerLength, 'utf8');
  return frame;
}

/** The same push for Electron IPC, which carries a Buffer to the page as a Uint8Array. */
export function toStreamFrame(push: HostStreamPush): StreamFrame {
  const data = Buffer.from(push.chunk.data, 'utf8');
  return push.t === 'term' ? { t: 'term', chunk: { ...push.chunk, data } } : { t: 'out', chunk: { ...push.chunk, data } };
}
