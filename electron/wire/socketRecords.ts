import { LineReader } from './lineFraming';

/**
 * What the local socket carries from the host: JSON text frames, one per line, and binary stream
 * frames (shared/streamFrames.ts) as records of a zero byte, a 32-bit big-endian length and that
 * many bytes. A JSON line never starts with a zero byte, so a reader at a line start tells the two
 * apart by the first byte. Requests to the host stay JSON lines.
 */
const RECORD_MARK = 0x00;
const RECORD_HEADER_BYTES = 5;

export function recordHeader(length: number): Buffer {
  const header = Buffer.allocUnsafe(RECORD_HEADER_BYTES);
  header[0] = RECORD_MARK;
  header.writeUInt32BE(length, 1);
  return header;
}

/**
 * Splits what the host sends into text lines and binary records, in linear time. A line or a
 * record longer than `maxFrameBytes` is skipped without being buffered, and `onOversized` is called.
 */
export class HostStreamReader {
  private readonly lines: LineReader;
  private header: Buffer | null = null;
  private headerBytes = 0;
  private record: Buffer | null = null;
  private recordFilled = 0;
  private skipBytes = 0;

  constructor(
    private readonly maxFrameBytes: number,
    onLine: (line: Buffer) => void,
    private readonly onRecord: (record: Buffer) => void,
    private readonly onOversized: () => void,
  ) {
    this.lines = new LineReader(maxFrameBytes, onLine, onOversized);
  }

  push(chunk: Buffer): void {
    let start = 0;
    while (start < chunk.length) {
      if (this.skipBytes > 0) {
        const skipped = Math.min(this.skipBytes, chunk.length - start);
        this.skipBytes -= skipped;
        start += skipped;
      } else if (this.record) {
        start = this.fillRecord(chunk, start);
      } else if (this.header) {
        start = this.fillHeader(chunk, start);
      } else if (this.lines.atLineStart && chunk[start] === RECORD_MARK) {
        this.header = Buffer.allocUnsafe(RECORD_HEADER_BYTES);
        this.headerBytes = 0;
      } else {
        const newline = chunk.indexOf(0x0a, start);
        const end = newline < 0 ? chunk.length : newline + 1;
        this.lines.push(chunk.subarray(start, end));
        start = end;
      }
    }
  }

  private fillHeader(chunk: Buffer, start: number): number {
    const header = this.header as Buffer;
    const taken = Math.min(RECORD_HEADER_BYTES - this.headerBytes, chunk.length - start);
    chunk.copy(header, this.headerBytes, start, start + taken);
    this.headerBytes += taken;
    if (this.headerBytes === RECORD_HEADER_BYTES) {
      this.header = null;
      const length = header.readUInt32BE(1);
      if (length > this.maxFrameBytes) {
        this.skipBytes = length;
        this.onOversized();
      } else if (length === 0) this.onRecord(Buffer.alloc(0));
      else {
        this.record = Buffer.allocUnsafe(length);
        this.recordFilled = 0;
      }
    }
    return start + taken;
  }

  private fillRecord(chunk: Buffer, start: number): number {
    const record = this.record as Buffer;
    const taken = Math.min(record.length - this.recordFilled, chunk.length - start);
    chunk.copy(record, this.recordFilled, start, start + taken);
    this.recordFilled += taken;
    if (this.recordFilled === record.length) {
      this.record = null;
      this.onRecord(record);
    }
    return start + taken;
  }
}
