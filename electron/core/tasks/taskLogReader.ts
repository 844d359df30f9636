import fs from 'node:fs';

const DEFAULT_MAX_BYTES = 1024 * 1024;

export interface LogSlice {
  offset: number;
  nextOffset: number;
  size: number;
  data: string;
}

/**
 * Reads part of a task log: from `offset`, or the last `tailBytes` so a viewer can show the end of
 * a huge log at once. A log that does not exist yet (a queued task) reads as empty.
 */
export function readLogSlice(file: string, request: { offset?: number; tailBytes?: number; maxBytes?: number }): LogSlice {
  let fd: number;
  try {
    fd = fs.openSync(file, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { offset: 0, nextOffset: 0, size: 0, data: '' };
    throw error;
  }
  try {
    const size = fs.fstatSync(fd).size;
    const maxBytes = request.maxBytes ?? DEFAULT_MAX_BYTES;
    const start = request.tailBytes !== undefined ? Math.max(0, size - request.tailBytes) : Math.min(request.offset ?? 0, size);
    const length = Math.min(maxBytes, size - start);
    const buffer = Buffer.alloc(length);
    const read = length > 0 ? fs.readSync(fd, buffer, 0, length, start) : 0;
    const whole = completeUtf8Prefix(buffer.subarray(0, read));
    return { offset: start, nextOffset: start + whole.length, size, data: whole.toString('utf8') };
  } finally {
    fs.closeSync(fd);
  }
}

/** Drops a trailing partial UTF-8 sequence so the next read starts on a character boundary. */
function completeUtf8Prefix(bytes: Buffer): Buffer {
  for (let back = 1; back <= Math.min(3, bytes.length); back++) {
    const byte = bytes[bytes.length - back] as number;
    if ((byte & 0xc0) === 0x80) continue;
    const expected = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
    return expected > back ? bytes.subarray(0, bytes.length - back) : bytes;
  }
  return bytes;
}
